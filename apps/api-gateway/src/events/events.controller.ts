import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { type EventLogEntryView, EventLogPageView, EventLogQueryDto, type Page, type Principal } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { NoStore } from '../http/personal-data.js';
import { ValidQuery } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

/** The event log of the key's organization and mode: organization API keys only, like webhooks (an OAuth token gets 403). */
@ApiTags('events')
@Controller('events')
export class EventsController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Get()
  @NoStore()
  @Operation('webhooks.events.list')
  @ApiOperation({
    summary: 'The event log: every event of the last 30 days as a webhook delivers it, with its webhook-id as id',
    description:
      'Newest first; with `after` (an event id, e.g. a webhook-id), the events recorded after it, oldest first, for a sync reader ' +
      '(`order=asc` without `after`: from the oldest event kept). ' +
      '`nextCursor` goes on in the same direction. A cursor works only with the organization, mode and filters it came from ' +
      '(422 on `cursor` otherwise); `after`, or an oldest-first cursor, older than the log keeps is 410 `cursor_expired`. API keys only.',
  })
  @ApiOkResponse({ type: EventLogPageView })
  @ApiProblems(['forbidden', 'validation_failed', 'cursor_expired'])
  list(@ValidQuery(EventLogQueryDto) query: EventLogQueryDto, @CurrentPrincipal() principal: Principal): Promise<Page<EventLogEntryView>> {
    const { limit, cursor, after, order, type, created_gte, created_lt } = query;
    return this.bus.request('webhooks.events.list', { principal, query: { limit, cursor, after, order, type, created_gte, created_lt } });
  }
}
