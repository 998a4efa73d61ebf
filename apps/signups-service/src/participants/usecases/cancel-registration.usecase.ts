import { Injectable } from '@nestjs/common';
import { ProblemError } from '#libs/problem';
import { Outbox, type Tx } from '#libs/runtime';
import { lockForTokenChange } from '../../signups/registration-window.js';
import type { Owner, Signup } from '../../signups/signup.js';
import { requireOwned } from '../../signups/signup.policy.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import type { Participant } from '../participant.js';
import { participantEvents } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { RegistrationReader, registrationNotFound, type Registration } from '../registration-reader.js';
import { SelectionAllocator } from '../selection-allocator.js';
import { participantNotFound } from './change-registration.usecase.js';

export interface RemoveParticipantCommand {
  owner: Owner;
  signupId: string;
  id: string;
}

/**
 * Removes a registration and frees what it held at once, in one transaction: the signup row is
 * locked first (registrations and removals of one signup queue there) and ownership or the
 * change window is decided on it, then the participant row is locked, its slots and items are
 * given back, it is deleted and the signup's participant_count goes down by one: a participant
 * removed twice at once is counted down once (the second finds no participant: 404). Emits
 * participant.canceled with the participant as it was, and slot/item.opened for what got room
 * again. The organizer may remove any participant of an owned signup; a participant, by
 * confirmation token, only while the signup is published and its event has not started (else 400).
 */
@Injectable()
export class CancelRegistrationUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly registrations: RegistrationReader,
    private readonly outbox: Outbox,
  ) {}

  byOrganizer({ owner, signupId, id }: RemoveParticipantCommand): Promise<Participant> {
    return this.outbox.transaction(async (tx) => {
      const signup = requireOwned(await this.signups.lock(tx.manager, signupId, 'update'), owner);
      return this.remove(tx, signup, id, participantNotFound);
    });
  }

  async byToken(token: string): Promise<Registration> {
    const found = await this.registrations.byToken(token);
    return this.outbox.transaction(async (tx) => {
      const signup = await lockForTokenChange(this.signups, tx.manager, found.signupId, 'update', registrationNotFound);
      return this.registrations.withSignup(await this.remove(tx, signup, found.id, registrationNotFound), tx.manager);
    });
  }

  private async remove(tx: Tx, signup: Signup, id: string, notFound: () => ProblemError): Promise<Participant> {
    const participant = await this.participants.lock(tx.manager, id, signup.id);
    if (!participant) throw notFound();
    const opened = await this.allocator.release(tx.manager, signup.id, participant.selections);
    await this.participants.delete(tx.manager, participant.id);
    const after = (await this.signups.countParticipants(tx.manager, signup.id, -1))!;
    await tx.emitAll(participantEvents('participant.canceled', participant, after, opened));
    return participant;
  }
}
