import { Injectable } from '@nestjs/common';
import { EventLogQueryDto, type HandlersOf, validateInput } from '#libs/contracts';
import { ownerOf } from '../endpoints/endpoint.js';
import { ListEventsUseCase } from './usecases/list-events.usecase.js';

/** The event log over the bus (API keys only, like every webhooks subject). */
@Injectable()
export class EventsHandlers {
  constructor(private readonly listEvents: ListEventsUseCase) {}

  handlers(): Pick<HandlersOf<'webhooks'>, 'webhooks.events.list'> {
    return {
      'webhooks.events.list': async ({ principal, query }) =>
        this.listEvents.execute(ownerOf(principal), await validateInput(EventLogQueryDto, query, 'query')),
    };
  }
}
