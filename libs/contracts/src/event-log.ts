import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto, PageQueryDto } from './pagination.js';
import { DateTimeField, EnumField, StringField, UuidField } from './validation.js';
import { WEBHOOK_EVENT_TYPES } from './webhooks.js';

/** The event types the log keeps: every type of the webhook catalog but webhook.test, which is no event of an organization. */
export const LOGGED_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'webhook.test');

/** GET /events (docs/decisions.md, "Event log and sync"). */
export class EventLogQueryDto extends PageQueryDto {
  @UuidField({
    description:
      'An event id read from this log (the last one a reader applied): list the events recorded after it, oldest first. ' +
      'Not the last webhook-id received: deliveries arrive in no order and retries lag, so resuming after one can skip events ' +
      '(a webhook-id is for deduplication). An event recorded but not listed yet is 409 conflict with Retry-After. ' +
      'With cursor, only the after of the listing the cursor came from (422 on cursor otherwise), or none: a cursor carries its own position.',
  })
  after?: string;

  @EnumField(['desc', 'asc'], {
    description:
      'desc (default): newest first. asc: oldest first, from the oldest event kept or after `after` (asc is implied by after). ' +
      "With cursor, only the cursor's own direction (422 on cursor otherwise), or none.",
  })
  order?: 'desc' | 'asc';

  @StringField({
    max: 1000,
    description: `Only events of these types, comma-separated: ${LOGGED_EVENT_TYPES.join(', ')}.`,
    example: 'signup.deleted,participant.canceled',
  })
  type?: string;

  @DateTimeField({ description: 'Only events that happened at or after this RFC 3339 date-time (not in the future).' })
  created_gte?: string;

  @DateTimeField({ description: 'Only events that happened before this RFC 3339 date-time (not in the future).' })
  created_lt?: string;
}

export type EventLogQuery = Pick<EventLogQueryDto, 'limit' | 'cursor' | 'after' | 'order' | 'type' | 'created_gte' | 'created_lt'>;

/** One event as a webhook delivers it, with its id (the webhook-id of its deliveries). */
export class EventLogEntryView {
  @ApiProperty({ format: 'uuid', description: 'The event id: the webhook-id of every delivery of this event.' }) id!: string;
  @ApiProperty({ enum: LOGGED_EVENT_TYPES }) type!: string;
  @ApiProperty({ format: 'date-time', description: 'When the event happened.' }) timestamp!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The resource as the REST API shows it (docs/webhooks.md, "Event catalog"), plus organizationId and livemode.',
  })
  data!: Record<string, unknown>;
}

export class EventLogPageView extends PageMetaDto {
  @ApiProperty({ type: EventLogEntryView, isArray: true }) data!: EventLogEntryView[];
}
