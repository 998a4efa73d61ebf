import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import type { Tier } from '#libs/config';
import type { Logger } from '#libs/observability';
import { APP_CONFIG, BUS, LOGGER } from '#libs/runtime';
import type { RemindersConfig } from '../reminders.config.js';
import type { PassTarget } from './channel-outcome.js';
import { type DueSignup, PassesRepository } from './passes.repository.js';
import { ReminderPasses } from './reminder-passes.js';

/** How long a replica holds a signup's automatic pass before another may run it again (longer than a pass runs). */
const LEASE_SECONDS = 600;

/** What the automatic pass of a leased signup texts about, as the projection has it, and who pays for it. */
export function passTargetOf(signup: DueSignup, tier: Tier): PassTarget {
  return {
    signupId: signup.id,
    organizationId: signup.organizationId,
    livemode: signup.livemode,
    tier,
    title: signup.title,
    eventDate: signup.eventDate.toISOString(),
    timeZone: signup.timeZone,
    publicUrl: signup.publicUrl,
  };
}

/**
 * The automatic pass, reminderHoursBefore (24 by default) before each published signup's event: every REMINDER_POLL_MS a
 * replica leases the signups that became due, one at a time (by row, so replicas share them),
 * and runs their passes by every channel the organization's tier offers (email on every tier,
 * texts from pro). A pass that did not reach everyone (provider down, daily ceiling reached) is
 * tried again when its lease ends; the claims of each channel keep any retry from reminding
 * someone twice.
 */
@Injectable()
export class AutomaticPasses implements OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly passes: PassesRepository,
    private readonly pass: ReminderPasses,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(APP_CONFIG) private readonly config: RemindersConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  start(): void {
    this.stopping = false;
    this.timer ??= setInterval(() => {
      this.running ??= this.runDue().finally(() => (this.running = undefined));
    }, this.config.reminderPollMs);
  }

  /** Starts no new pass; the one running finishes. */
  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async runDue(): Promise<void> {
    while (!this.stopping) {
      let due: DueSignup | undefined;
      try {
        due = await this.passes.leaseDue(LEASE_SECONDS);
      } catch (err) {
        this.logger.error({ err }, 'cannot look for automatic reminder passes');
        return;
      }
      if (!due) return;
      await this.runOne(due);
    }
  }

  private async runOne(signup: DueSignup): Promise<void> {
    try {
      const { tier } = await this.bus.request('auth.orgs.tier', { organizationId: signup.organizationId });
      const outcome = await this.pass.run(passTargetOf(signup, tier), 'automatic', this.pass.channelsOf(tier));
      this.logger.info({ signupId: signup.id, ...outcome }, 'automatic reminder pass');
      if (outcome.complete) await this.passes.finishAutomaticPass(signup);
    } catch (err) {
      this.logger.warn({ err, signupId: signup.id }, 'automatic reminder pass not done; tried again when its lease ends');
    }
  }
}
