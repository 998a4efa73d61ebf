import { ApiProperty } from '@nestjs/swagger';
import { PageMetaDto } from './pagination.js';
import { EnumListField, QueryIntField, StringField } from './validation.js';

/** What an endpoint can subscribe to (API decisions, "Webhooks"); `*` is every type. */
export const WEBHOOK_EVENT_TYPES = [
  'signup.created',
  'signup.updated',
  'signup.published',
  'signup.closed',
  'signup.deleted',
  'participant.registered',
  'participant.updated',
  'participant.canceled',
  'participant.waitlisted',
  'participant.offered',
  'participant.promoted',
  'participant.offer_expired',
  'participant.checked_in',
  'participant.no_show',
  'slot.updated',
  'slot.filled',
  'slot.opened',
  'item.filled',
  'item.opened',
  'reminder.sent',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const ALL_EVENT_TYPES = '*';

export const PAUSED_REASONS = ['manual', 'gone', 'consecutive_failures'] as const;
export type PausedReason = (typeof PAUSED_REASONS)[number];

const SUBSCRIBABLE = [...WEBHOOK_EVENT_TYPES, ALL_EVENT_TYPES] as const;
const EVENT_TYPES_DOC = 'Event types to receive; omitted or ["*"]: every type.';

export class CreateWebhookDto {
  @StringField({ required: true, min: 1, max: 2048, format: 'uri', example: 'https://example.com/hooks/signups' })
  url!: string;

  @StringField({ max: 500 })
  description?: string;

  @EnumListField(SUBSCRIBABLE, { min: 1, description: EVENT_TYPES_DOC })
  eventTypes?: string[];
}

export class UpdateWebhookDto {
  @StringField({ min: 1, max: 2048, format: 'uri' })
  url?: string;

  @StringField({ max: 500 })
  description?: string;

  @EnumListField(SUBSCRIBABLE, { min: 1, description: EVENT_TYPES_DOC })
  eventTypes?: string[];
}

export type CreateWebhookInput = Omit<CreateWebhookDto, never>;
export type UpdateWebhookInput = Omit<UpdateWebhookDto, never>;

export class WebhookEndpointView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: String, isArray: true, example: ['*'] }) eventTypes!: string[];
  @ApiProperty() paused!: boolean;
  @ApiProperty({ type: String, nullable: true, enum: PAUSED_REASONS }) pausedReason!: PausedReason | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) pausedAt!: string | null;
  @ApiProperty({ type: 'integer' }) consecutiveFailures!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSuccessAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastFailureAt!: string | null;
  @ApiProperty({ description: 'false for a sandbox endpoint, which only sandbox events reach.' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** The creation and rotation answer: the only time the signing secret is shown. */
export class WebhookWithSecretView {
  @ApiProperty({ type: WebhookEndpointView }) endpoint!: WebhookEndpointView;
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'Shown once: keep it to verify deliveries.' })
  signingSecret!: string;
}

export class WebhookPageView extends PageMetaDto {
  @ApiProperty({ type: WebhookEndpointView, isArray: true }) data!: WebhookEndpointView[];
}

/** The answer of POST /webhooks/{id}/test: one synchronous webhook.test delivery. */
export class WebhookTestView {
  @ApiProperty() delivered!: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) responseStatus!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first 1 KiB of the answer.' }) responseBody!: string | null;
  @ApiProperty({ type: String, nullable: true }) errorMessage!: string | null;
  @ApiProperty({ type: 'integer' }) latencyMs!: number;
}

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'skipped'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event for one endpoint: every attempt and replay carries the event id as webhook-id. */
export class DeliveryView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The event id, sent as webhook-id.' }) eventId!: string;
  @ApiProperty() eventType!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status!: DeliveryStatus;
  @ApiProperty({ type: 'integer' }) attemptCount!: number;
  @ApiProperty({ type: 'integer', nullable: true }) lastResponseStatus!: number | null;
  @ApiProperty({ type: String, nullable: true }) errorMessage!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deliveredAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt!: string | null;
}

export class DeliveryPageView extends PageMetaDto {
  @ApiProperty({ type: DeliveryView, isArray: true }) data!: DeliveryView[];
}

export const DEFAULT_DELIVERY_PAGE = 50;
export const MAX_DELIVERY_PAGE = 200;

export class DeliveryPageQueryDto {
  @QueryIntField({ min: 1, max: MAX_DELIVERY_PAGE, default: DEFAULT_DELIVERY_PAGE, description: 'Page size, 1 to 200 (default 50).' })
  limit?: number;

  @StringField({ max: 512, description: 'The nextCursor of the previous page.' })
  cursor?: string;
}
