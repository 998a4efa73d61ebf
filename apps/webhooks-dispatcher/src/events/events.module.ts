import { Module } from '@nestjs/common';
import { EventsHandlers } from './events.handlers.js';
import { EventsRepository } from './events.repository.js';
import { LogFrontier } from './log-frontier.js';
import { ListEventsUseCase } from './usecases/list-events.usecase.js';

/** The event log: every event the fan-out applies, recorded once, and read by organization and mode. */
@Module({
  providers: [EventsRepository, ListEventsUseCase, EventsHandlers, LogFrontier],
  exports: [EventsRepository, EventsHandlers, LogFrontier],
})
export class EventsModule {}
