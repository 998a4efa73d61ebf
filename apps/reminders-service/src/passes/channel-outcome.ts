import type { Tier, TierLimits } from '#libs/config';
import type { ReminderChannelView, ReminderTrigger } from '#libs/contracts';
import { upgradeRequired } from '#libs/problem';
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

/** A channel's allowance of the day by tier: its ceiling, whether a tier has the channel at all, and the 402 for one that does not. */
export class DailyAllowance {
  constructor(
    private readonly limits: Readonly<Record<Tier, TierLimits>>,
    private readonly limit: 'smsPerDay' | 'emailsPerDay',
    private readonly featureLabel: string,
  ) {}

  ceiling(tier: Tier): number {
    return this.limits[tier][this.limit];
  }

  offered(tier: Tier): boolean {
    return this.ceiling(tier) > 0;
  }

  /** 402 upgrade_required (kind feature) when the tier has none of it. */
  assertOffered(tier: Tier): void {
    if (!this.offered(tier)) {
      throw upgradeRequired({ kind: 'feature', featureLabel: this.featureLabel, currentTier: tier, allowance: (t) => this.ceiling(t) });
    }
  }
}

/** A channel of a reminder pass: texts or emails. */
export interface PassChannelRunner {
  readonly allowance: DailyAllowance;
  run(target: PassTarget, trigger: ReminderTrigger): Promise<ChannelOutcome>;
}
