import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import type { Principal, ReminderPassView, SignupView } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { BUS } from '#libs/runtime';
import { PassesRepository } from './passes.repository.js';
import { ReminderPass } from './reminder-pass.js';

/** How long a pass waits for the contacts projection to catch up with the signup's registrations. */
const CATCH_UP_MS = 2000;
const CATCH_UP_POLL_MS = 20;

/**
 * The organizer's pass (POST /signups/{id}/reminders/send): the signups-service says whether
 * the principal owns the signup and whether it is published; the projection says whom to text.
 */
@Injectable()
export class ManualPassUseCase {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly passes: PassesRepository,
    private readonly pass: ReminderPass,
  ) {}

  async execute(principal: Principal, signupId: string): Promise<ReminderPassView> {
    this.pass.assertFeature(principal.tier);
    const signup = await this.bus.request('signups.reminders.target', { principal, signupId });
    if (signup.status !== 'published') {
      throw new ProblemError('bad_request', `Reminders go out for published signups only; this one is ${signup.status}.`);
    }
    await this.catchUp(signup);
    const { eligible, sent, failed, notEligible } = await this.pass.run(
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
    );
    return { eligible, sent, failed, notEligible };
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
