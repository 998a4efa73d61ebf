import { Injectable } from '@nestjs/common';
import { requireIfMatch } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox, type Tx } from '#libs/runtime';
import { lockForTokenChange, type TokenWindow } from '../signups/registration-window.js';
import type { Owner, Signup } from '../signups/signup.js';
import { requireOwned } from '../signups/signup.policy.js';
import { SignupsRepository } from '../signups/signups.repository.js';
import type { Participant } from './participant.js';
import { participantView } from './participant.presenter.js';
import { ParticipantsRepository, type StoredParticipant } from './participants.repository.js';
import { RegistrationPresenter } from './registration.presenter.js';
import { type Registration, registrationNotFound, RegistrationReader } from './registration-reader.js';

export function participantNotFound(): ProblemError {
  return new ProblemError('not_found', 'No participant with this id in this signup.');
}

/** A change of a registration, run once both rows are locked: what the participant becomes. */
export type RegistrationWork = (tx: Tx, signup: Signup, participant: StoredParticipant) => Promise<Participant>;

/**
 * How every change of a registration starts, by the organizer or by the participant's
 * confirmation token: in one transaction, the signup row is locked for update first (a change
 * may free places that go to other participants in line, so the changes of one signup's places
 * run one at a time, as its registrations do) and ownership or the change window is decided on
 * it, then the participant row is locked and read. A change sent with If-Match is then checked
 * against the tag of the participant's representation (the organizer's: the participant as
 * signups.participants.get answers it; the participant's: the registration as
 * signups.registrations.get answers it): with both rows locked, of two changes sent with one tag
 * the second sees the first's result and is 412 precondition_failed, changing nothing.
 */
@Injectable()
export class RegistrationLock {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly registrations: RegistrationReader,
    private readonly outbox: Outbox,
    private readonly presenter: RegistrationPresenter,
  ) {}

  /** For the organizer: any participant of an owned signup, in any status. */
  byOrganizer(owner: Owner, signupId: string, id: string, work: RegistrationWork, ifMatch?: string): Promise<Participant> {
    return this.outbox.transaction(async (tx) => {
      const signup = requireOwned(await this.signups.lock(tx.manager, signupId, 'update'), owner);
      const participant = await this.participant(tx, signup, id, participantNotFound);
      requireIfMatch(ifMatch, participantView(participant, signup.livemode));
      return work(tx, signup, participant);
    });
  }

  /**
   * For the participant, by confirmation token, within the window of the change (TokenWindow: an
   * edit or a cancellation while the signup is published and its event has not started, a move
   * in a line until the event starts; else 400); answers the registration as the change leaves it.
   */
  async byToken(token: string, work: RegistrationWork, window: TokenWindow = 'change', ifMatch?: string): Promise<Registration> {
    const found = await this.registrations.byToken(token);
    return this.outbox.transaction(async (tx) => {
      const signup = await lockForTokenChange(this.signups, tx.manager, found.signupId, window, registrationNotFound);
      const participant = await this.participant(tx, signup, found.id, registrationNotFound);
      if (ifMatch !== undefined) {
        requireIfMatch(ifMatch, this.presenter.view(await this.registrations.withSignup(participant, tx.manager)));
      }
      const changed = await work(tx, signup, participant);
      return this.registrations.withSignup(changed, tx.manager);
    });
  }

  private async participant(tx: Tx, signup: Signup, id: string, notFound: () => ProblemError): Promise<StoredParticipant> {
    const participant = await this.participants.lock(tx.manager, id, signup.id);
    if (!participant) throw notFound();
    return participant;
  }
}
