import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DateTimeField, EMAIL_MAX_LENGTH, EnumField, StringField, UuidField } from './validation.js';

/**
 * What the platform mails (docs/decisions.md, "Email"): the participant messages, each answering
 * one event, the reminder, and the account messages of the auth-server.
 */
export const EMAIL_KINDS = [
  'confirmation',
  'change',
  'cancellation',
  'waitlisted',
  'offer',
  'promoted',
  'reminder',
  'account_verification',
  'password_reset',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** The messages the auth-server has the reminders-service send about an account (reminders.emails.account). */
export const ACCOUNT_EMAIL_KINDS = ['account_verification', 'password_reset'] as const satisfies readonly EmailKind[];
export type AccountEmailKind = (typeof ACCOUNT_EMAIL_KINDS)[number];

/** The longest link an account message carries (the auth-server's are about 90 characters). */
export const ACCOUNT_LINK_MAX_LENGTH = 2000;

/**
 * An account message to send (reminders.emails.account): a verification or reset link of the
 * auth-server for one address, and when it expires. requestId is the auth-server's id of the
 * link: the message is recorded once per requestId and kind, so asking again sends nothing more.
 */
export class AccountEmailInput {
  @UuidField({ required: true }) requestId!: string;
  @StringField({ required: true, format: 'email', max: EMAIL_MAX_LENGTH }) to!: string;
  @EnumField(ACCOUNT_EMAIL_KINDS, { required: true }) kind!: AccountEmailKind;
  @StringField({ required: true, format: 'uri', max: ACCOUNT_LINK_MAX_LENGTH }) link!: string;
  @DateTimeField({ required: true }) expiresAt!: string;
}

/**
 * Where a message stands: `stored` is kept and never sent (sandbox records, or no SMTP_URL);
 * `queued` waits for its (next) attempt; `sending` is with an SMTP server; `sent` was accepted by
 * it; `failed` was refused for good or ran out of attempts; `suppressed` was not sent because the
 * address bounced or unsubscribed.
 */
export const EMAIL_STATUSES = ['stored', 'queued', 'sending', 'sent', 'failed', 'suppressed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** An invitation (REQUEST), its withdrawal (CANCEL), or a plain calendar (PUBLISH), as iCalendar text. */
export class EmailCalendarView {
  @ApiProperty({ enum: ['PUBLISH', 'REQUEST', 'CANCEL'] }) method!: 'PUBLISH' | 'REQUEST' | 'CANCEL';
  @ApiProperty({ description: 'The .ics attachment (text/calendar)' }) ics!: string;
}

export class EmailSenderView {
  @ApiProperty({ description: "The organization's name (the platform's for account messages)" }) name!: string;
  @ApiProperty({ example: 'no-reply@signups.example' }) address!: string;
}

/** A message as recorded: what was (or would have been) sent, and where it stands. */
export class EmailView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: EMAIL_KINDS }) kind!: EmailKind;
  @ApiProperty({ enum: EMAIL_STATUSES }) status!: EmailStatus;
  @ApiProperty({ type: () => EmailSenderView }) from!: EmailSenderView;
  @ApiProperty({ example: 'ada@example.com' }) to!: string;
  @ApiProperty() subject!: string;
  @ApiProperty({ description: 'The plain-text part' }) text!: string;
  @ApiProperty({ description: 'The HTML part' }) html!: string;
  @ApiPropertyOptional({ type: () => EmailCalendarView, nullable: true }) calendar!: EmailCalendarView | null;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'The one-click unsubscribe link (reminders only)' })
  unsubscribeUrl!: string | null;
  @ApiPropertyOptional({ type: 'string', format: 'uuid', nullable: true }) signupId!: string | null;
  @ApiPropertyOptional({ type: 'string', format: 'uuid', nullable: true }) participantId!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({ type: 'string', format: 'date-time', nullable: true }) sentAt!: string | null;
}

export class EmailListView {
  @ApiProperty({ type: () => EmailView, isArray: true }) data!: EmailView[];
}
