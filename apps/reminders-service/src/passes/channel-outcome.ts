import type { Tier } from '#libs/config';
import type { ReminderChannelView, ReminderTrigger } from '#libs/contracts';
import type { ReminderSubject } from './reminder-text.js';

/** The signup a pass is for, and whose organization pays for it. */
export interface PassTarget extends ReminderSubject {
  signupId: string;
  organizationId: string;
  livemode: boolean;
  tier: Tier;
}

/** What one channel of a pass did, and how it ended. */
export interface ChannelOutcome extends ReminderChannelView {
  /** It reached everyone eligible (the automatic pass runs again when not). */
  complete: boolean;
  /** The organization's ceiling of the day for this channel had nothing left: nobody was reminded by it. */
  full?: { ceiling: number; what: string };
  /** Every text failed for the provider: 504 when all timed out, else 502, and what to tell. */
  upstream?: { status: 502 | 504; detail: string };
}

/** A channel of a reminder pass: texts or emails. */
export interface PassChannelRunner {
  /** 402 when the organization's tier has no reminders by this channel. */
  assertFeature(tier: Tier): void;
  /** Whether the tier has reminders by this channel. */
  offered(tier: Tier): boolean;
  run(target: PassTarget, trigger: ReminderTrigger): Promise<ChannelOutcome>;
}
