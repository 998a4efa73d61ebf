import { Module } from '@nestjs/common';
import { EventsHandlers } from './events.handlers.js';
import { EventsRepository } from './events.repository.js';
import { ListEventsUseCase } from './usecases/list-events.usecase.js';

/** The event log: every event the fan-out applies, recorded once, and read by organization and mode. */
@Module({
  providers: [EventsRepository, ListEventsUseCase, EventsHandlers],
  exports: [EventsRepository, EventsHandlers],
})
export class EventsModule {}
