import { ApiProperty } from '@nestjs/swagger';

/** What started a reminder pass: the organizer's call, or the scheduler about 24 h before the event. */
export const REMINDER_TRIGGERS = ['manual', 'automatic'] as const;
export type ReminderTrigger = (typeof REMINDER_TRIGGERS)[number];

/** Why a participant with a phone is left out of every pass (SMS number policy, docs/decisions.md "Reminders"). */
export const NOT_ELIGIBLE_REASONS = ['not_mobile', 'country_not_allowed'] as const;
export type NotEligibleReason = (typeof NOT_ELIGIBLE_REASONS)[number];

export class NotEligibleView {
  @ApiProperty({
    enum: NOT_ELIGIBLE_REASONS,
    description:
      'not_mobile: the number is not a mobile (premium rate, shared cost, toll free, VoIP, personal number, fixed line…); ' +
      'country_not_allowed: its country is not among those the platform texts',
  })
  reason!: NotEligibleReason;

  @ApiProperty({ type: 'integer', description: 'Phone numbers left out for this reason (one per number, like eligible)' })
  count!: number;
}

/** The outcome of one reminder pass (contract: "Reminder pass result"). */
export class ReminderPassView {
  @ApiProperty({
    type: 'integer',
    description:
      'Participants with a phone the platform texts (see notEligible), not opted out and not reminded yet for this signup, one per phone number',
  })
  eligible!: number;

  @ApiProperty({ type: 'integer', description: 'Texts accepted by the SMS provider (sandbox: stored in the outbox)' })
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
      'Participants with a phone that no pass texts, by reason (not counted in eligible; empty when none). Their registration stands',
  })
  notEligible!: NotEligibleView[];
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

/** What reminder.sent carries: one text that went out (sandbox: stored in the outbox). */
export interface ReminderSentData {
  /** The reminder's id; in sandbox also the outbox message's. */
  id: string;
  signupId: string;
  participantId: string;
  trigger: ReminderTrigger;
  sentAt: string;
  organizationId: string;
  livemode: boolean;
}

/** An SMS that arrived on the inbound webhook, its signature already checked at the edge. */
export interface InboundSms {
  from: string;
  body: string;
}
