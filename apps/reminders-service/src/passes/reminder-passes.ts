import { Injectable } from '@nestjs/common';
import type { Tier } from '#libs/config';
import { NOT_ELIGIBLE_REASONS, type PassChannel, type ReminderPassView, type ReminderTrigger, utcDay } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { ChannelOutcome, DailyAllowance, PassChannelRunner, PassTarget } from './channel-outcome.js';
import { EmailReminderPass } from './email-reminder-pass.js';
import { ReminderPass } from './reminder-pass.js';

/** A pass's result, and whether it reached everyone eligible by every channel (the automatic pass runs again when not). */
export interface PassOutcome extends ReminderPassView {
  complete: boolean;
}

/** The channels in the order a pass runs them: email first (recorded at once), then texts (sent one by one). */
const ORDER: readonly PassChannel[] = ['email', 'sms'];

/**
 * A reminder pass by one or both channels (docs/decisions.md, "Email reminders"): each channel the
 * organization's tier offers is checked first (402 for one it does not), then run in turn and
 * counted apart; the totals are their sums. 429 when the day's ceiling of every channel asked for
 * was already reached (nobody was reminded); 502/504 when nothing was sent and every text failed
 * for the SMS provider.
 */
@Injectable()
export class ReminderPasses {
  private readonly runners: Record<PassChannel, PassChannelRunner>;

  constructor(sms: ReminderPass, email: EmailReminderPass) {
    this.runners = { sms, email };
  }

  /** The channels a tier's automatic pass runs: those it offers. */
  channelsOf(tier: Tier): PassChannel[] {
    return ORDER.filter((channel) => this.runners[channel].allowance.offered(tier));
  }

  /** A channel's allowance of the day by tier. */
  allowance(channel: PassChannel): DailyAllowance {
    return this.runners[channel].allowance;
  }

  assertFeatures(channels: readonly PassChannel[], tier: Tier): void {
    for (const channel of channels) this.runners[channel].allowance.assertOffered(tier);
  }

  async run(target: PassTarget, trigger: ReminderTrigger, channels: readonly PassChannel[]): Promise<PassOutcome> {
    this.assertFeatures(channels, target.tier);
    const outcomes: Partial<Record<PassChannel, ChannelOutcome>> = {};
    for (const channel of ORDER) if (channels.includes(channel)) outcomes[channel] = await this.runners[channel].run(target, trigger);
    const ran = Object.values(outcomes);
    const sent = ran.reduce((sum, outcome) => sum + outcome.sent, 0);
    if (ran.length > 0 && ran.every((outcome) => outcome.full)) {
      const spent = ran.map((outcome) => `its ${outcome.full!.ceiling} ${outcome.full!.what}`).join(' and ');
      throw new ProblemError('daily_ceiling_exceeded', `This organization sent ${spent} for today (UTC). Retry the next UTC day.`, {
        headers: { 'retry-after': String(utcDay().secondsLeft) },
      });
    }
    const upstream = outcomes.sms?.upstream;
    if (sent === 0 && upstream) throw new ProblemError('upstream_unavailable', upstream.detail, { status: upstream.status });
    const view = (outcome: ChannelOutcome) => ({
      eligible: outcome.eligible,
      sent: outcome.sent,
      failed: outcome.failed,
      notEligible: outcome.notEligible,
    });
    return {
      eligible: ran.reduce((sum, outcome) => sum + outcome.eligible, 0),
      sent,
      failed: ran.reduce((sum, outcome) => sum + outcome.failed, 0),
      notEligible: NOT_ELIGIBLE_REASONS.flatMap((reason) =>
        ran.flatMap((outcome) => outcome.notEligible.filter((n) => n.reason === reason)),
      ),
      channels: Object.fromEntries(Object.entries(outcomes).map(([channel, outcome]) => [channel, view(outcome)])),
      complete: ran.every((outcome) => outcome.complete),
    };
  }
}
