import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import type { PassChannel, Principal, ReminderChannel, ReminderPassView, SignupView } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { BUS } from '#libs/runtime';
import { PassesRepository } from './passes.repository.js';
import { ReminderPasses } from './reminder-passes.js';

/** How long a pass waits for the contacts projection to catch up with the signup's registrations. */
const CATCH_UP_MS = 2000;
const CATCH_UP_POLL_MS = 20;

/** The channels of a pass asked for by `channel` (sms when left out, as the contract's pass always was). */
function channelsOf(channel: ReminderChannel = 'sms'): PassChannel[] {
  return channel === 'both' ? ['email', 'sms'] : [channel];
}

/**
 * The organizer's pass (POST /signups/{id}/reminders/send): the signups-service says whether
 * the principal owns the signup and whether it is published; the projection says whom to remind.
 */
@Injectable()
export class ManualPassUseCase {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly passes: PassesRepository,
    private readonly pass: ReminderPasses,
  ) {}

  async execute(principal: Principal, signupId: string, channel?: ReminderChannel): Promise<ReminderPassView> {
    const channels = channelsOf(channel);
    this.pass.assertFeatures(channels, principal.tier);
    const signup = await this.bus.request('signups.reminders.target', { principal, signupId });
    if (signup.status !== 'published') {
      throw new ProblemError('bad_request', `Reminders go out for published signups only; this one is ${signup.status}.`);
    }
    await this.catchUp(signup);
    const {
      eligible,
      sent,
      failed,
      notEligible,
      channels: counted,
    } = await this.pass.run(
      {
        signupId: signup.id,
        organizationId: signup.organizationId,
        livemode: signup.livemode,
        tier: principal.tier,
        title: signup.title,
        eventDate: signup.eventDate,
        timeZone: signup.timeZone,
        publicUrl: signup.publicUrl,
      },
      'manual',
      channels,
    );
    return { eligible, sent, failed, notEligible, channels: counted };
  }

  /**
   * Read-your-writes for the organizer: someone who registered a moment ago is in the pass.
   * Waits (briefly) until the projection holds at least as many active participants as the signup
   * counts (those waiting for a place in the signup are active and not counted: at least).
   */
  private async catchUp(signup: SignupView): Promise<void> {
    const deadline = Date.now() + CATCH_UP_MS;
    while ((await this.passes.activeParticipants(signup.id)) < signup.participantCount && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
    }
  }
}
