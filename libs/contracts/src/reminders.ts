import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EnumField } from './validation.js';

/** What started a reminder pass: the organizer's call, or the scheduler the signup's reminderHoursBefore before the event. */
export const REMINDER_TRIGGERS = ['manual', 'automatic'] as const;
export type ReminderTrigger = (typeof REMINDER_TRIGGERS)[number];

/** How a pass reminds: by text, by email, or both (docs/decisions.md "Email reminders"). */
export const REMINDER_CHANNELS = ['sms', 'email', 'both'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

/** The channels a pass may run, each reported on its own. */
export type PassChannel = Exclude<ReminderChannel, 'both'>;

/** POST /signups/{id}/reminders/send (the body is optional). */
export class SendRemindersDto {
  @EnumField(REMINDER_CHANNELS, {
    description:
      'sms (the default): a text to each participant with a mobile number; email: an email to each participant (every tier); ' +
      'both: each channel in one pass, counted apart under channels.',
  })
  channel?: ReminderChannel;
}

/**
 * Why a participant is left out of every pass: for texts, the SMS number policy; for email, an
 * address that bounced or unsubscribed from the organization's reminders (docs/decisions.md "Reminders").
 */
export const NOT_ELIGIBLE_REASONS = ['not_mobile', 'country_not_allowed', 'bounced', 'unsubscribed'] as const;
export type NotEligibleReason = (typeof NOT_ELIGIBLE_REASONS)[number];

export class NotEligibleView {
  @ApiProperty({
    enum: NOT_ELIGIBLE_REASONS,
    description:
      'not_mobile: the number is not a mobile (premium rate, shared cost, toll free, VoIP, personal number, fixed line…); ' +
      'country_not_allowed: its country is not among those the platform texts; ' +
      'bounced: mail to the address bounced; unsubscribed: the address unsubscribed from this organization’s reminders',
  })
  reason!: NotEligibleReason;

  @ApiProperty({
    type: 'integer',
    description: 'Phone numbers or addresses left out for this reason (one per number or address, like eligible)',
  })
  count!: number;
}

/** One channel's part of a pass. */
export class ReminderChannelView {
  @ApiProperty({
    type: 'integer',
    description:
      'sms: participants with a phone the platform texts, not opted out, one per phone number; email: participants with an address ' +
      'that neither bounced nor unsubscribed, one per address. Either way not reminded of this signup by this channel yet',
  })
  eligible!: number;

  @ApiProperty({
    type: 'integer',
    description:
      'sms: texts accepted by the SMS provider; email: emails queued for sending (the outbox sends each once, retrying a mail server ' +
      'that fails for a while). Sandbox: stored, never sent',
  })
  sent!: number;

  @ApiProperty({ type: 'integer', description: 'sms: texts the provider refused or did not answer (they stay eligible); email: always 0' })
  failed!: number;

  @ApiProperty({ type: () => NotEligibleView, isArray: true, description: 'Those this channel never reminds, by reason' })
  notEligible!: NotEligibleView[];
}

/** The channels a pass ran: only those asked for. */
export class ReminderChannelsView {
  @ApiPropertyOptional({ type: () => ReminderChannelView }) sms?: ReminderChannelView;
  @ApiPropertyOptional({ type: () => ReminderChannelView }) email?: ReminderChannelView;
}

/** The outcome of one reminder pass (contract: "Reminder pass result"). */
export class ReminderPassView {
  @ApiProperty({
    type: 'integer',
    description:
      'The sum over the channels that ran (see channels). sms: participants with a phone the platform texts (see notEligible), ' +
      'not opted out and not reminded yet for this signup, one per phone number',
  })
  eligible!: number;

  @ApiProperty({
    type: 'integer',
    description: 'The sum over the channels: texts accepted by the SMS provider, emails queued (sandbox: stored in the outbox)',
  })
  sent!: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Texts the provider refused or did not answer; those participants stay eligible, unless the provider reports the number opted out',
  })
  failed!: number;

  @ApiProperty({
    type: () => NotEligibleView,
    isArray: true,
    description:
      'Participants no pass reminds by a channel that ran, by reason (not counted in eligible; empty when none). Their registration stands',
  })
  notEligible!: NotEligibleView[];

  @ApiProperty({ type: () => ReminderChannelsView, description: 'Each channel that ran, counted on its own' })
  channels!: ReminderChannelsView;
}

/** A text of a sandbox pass: stored, never sent. */
export class OutboxMessageView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) signupId!: string;
  @ApiProperty({ format: 'uuid' }) participantId!: string;
  @ApiProperty({ example: '+14155550123', description: 'E.164' }) to!: string;
  @ApiProperty() body!: string;
  @ApiProperty({ enum: REMINDER_TRIGGERS }) trigger!: ReminderTrigger;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class OutboxListView {
  @ApiProperty({ type: () => OutboxMessageView, isArray: true }) data!: OutboxMessageView[];
}

/** What reminder.sent carries: one text that went out, or one reminder email queued (sandbox: stored). */
export interface ReminderSentData {
  /** The reminder's id: the text's (in sandbox also the outbox message's), or the email's. */
  id: string;
  signupId: string;
  participantId: string;
  trigger: ReminderTrigger;
  sentAt: string;
  organizationId: string;
  livemode: boolean;
  channel: PassChannel;
}

/** An SMS that arrived on the inbound webhook, its signature already checked at the edge. */
export interface InboundSms {
  from: string;
  body: string;
}

/** A channel's day for the organization, as GET /signups/{id}/reminders tells it. */
export class ReminderChannelStatusView {
  @ApiProperty({ description: "Whether the organization's tier offers this channel (texts from pro, email on every tier)" })
  available!: boolean;

  @ApiProperty({ type: 'integer', description: "The tier's ceiling of this channel per UTC day (0 when the tier does not offer it)" })
  ceiling!: number;

  @ApiProperty({
    type: 'integer',
    description:
      'What the organization used of it today (UTC), by every live signup: sms, the texts of its reminder passes; email, every ' +
      'email to the participants of its live signups (confirmations and notices share the ceiling with reminders)',
  })
  used!: number;

  @ApiProperty({ type: 'integer', description: 'ceiling − used, never below 0: what a live pass may still send today' })
  remaining!: number;

  @ApiProperty({ format: 'date-time', description: 'The next UTC midnight, when used starts again from 0' })
  resetsAt!: string;

  @ApiProperty({
    description: "false for a sandbox signup: its reminders are stored, never sent, and use none of the organization's ceiling",
  })
  usesCeiling!: boolean;
}

/** Both channels, always. */
export class ReminderStatusChannelsView {
  @ApiProperty({ type: () => ReminderChannelStatusView }) sms!: ReminderChannelStatusView;
  @ApiProperty({ type: () => ReminderChannelStatusView }) email!: ReminderChannelStatusView;
}

/** The reminders of a signup so far, per channel. */
export class RemindedCountsView {
  @ApiProperty({
    type: 'integer',
    description:
      'Texts sent for this signup, one per participant and phone number (a phone two participants share got one text). ' +
      'Sandbox: the texts the sandbox outbox still keeps',
  })
  sms!: number;

  @ApiProperty({
    type: 'integer',
    description: 'Addresses emailed a reminder of this signup, one per address (two participants sharing an address got one email)',
  })
  email!: number;
}

/** GET /signups/{id}/reminders: what a pass may still send today, and what was sent for the signup. */
export class ReminderStatusView {
  @ApiProperty({ type: () => ReminderStatusChannelsView, description: "Each channel's ceiling of the day for the organization" })
  channels!: ReminderStatusChannelsView;

  @ApiProperty({ type: () => RemindedCountsView, description: 'Reminders of this signup so far, by channel (manual and automatic passes)' })
  reminded!: RemindedCountsView;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the latest reminder of this signup was sent (an email: queued), by either channel; null when none was',
  })
  lastSentAt!: string | null;
}
