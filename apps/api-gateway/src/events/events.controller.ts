import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { type EventLogEntryView, EventLogPageView, EventLogQueryDto, type Page, type Principal } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { NoStore } from '../http/personal-data.js';
import { ValidQuery } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

/** The event log of the key's organization and mode: organization API keys with participants:read only (an OAuth token gets 403). */
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
      'Newest first; with `after` (the last event id a sync reader read from this log, not a webhook-id: deliveries arrive in ' +
      'no order), the events recorded after it, oldest first (`order=asc` without `after`: from the oldest event kept). ' +
      '`nextCursor` goes on in the same direction. A cursor works only with the organization, mode, filters, `after` and `order` ' +
      'it came from (422 on `cursor` otherwise; repeating them next to it is fine); `after`, or an oldest-first cursor, older ' +
      'than the log keeps is 410 `cursor_expired`; an `after` recorded but not listed yet (a transaction still running) is ' +
      '409 `conflict` with `Retry-After: 1`. API keys only, with the scope participants:read.',
  })
  @ApiOkResponse({ type: EventLogPageView })
  @ApiProblems(['forbidden', 'scope_required', 'validation_failed', 'conflict', 'cursor_expired'], { retryAfter: [409] })
  list(@ValidQuery(EventLogQueryDto) query: EventLogQueryDto, @CurrentPrincipal() principal: Principal): Promise<Page<EventLogEntryView>> {
    const { limit, cursor, after, order, type, created_gte, created_lt } = query;
    return this.bus.request('webhooks.events.list', { principal, query: { limit, cursor, after, order, type, created_gte, created_lt } });
  }
}
