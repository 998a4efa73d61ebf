import { Injectable } from '@nestjs/common';
import type { Tx } from '#libs/runtime';
import type { Owner, Signup } from '../../signups/signup.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import type { Participant } from '../participant.js';
import { participantEvents } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { RegistrationLock } from '../registration-lock.js';
import type { Registration } from '../registration-reader.js';
import { SelectionAllocator } from '../selection-allocator.js';

export interface RemoveParticipantCommand {
  owner: Owner;
  signupId: string;
  id: string;
}

/**
 * Removes a registration and frees what it held at once, in one transaction: the signup row is
 * locked first (registrations and removals of one signup queue there) and ownership or the
 * change window is decided on it, then the participant row is locked (RegistrationLock), its
 * slots and items are given back, it is deleted and the signup's participant_count goes down by
 * one: a participant removed twice at once is counted down once (the second finds no participant:
 * 404). Emits participant.canceled with the participant as it was, and slot/item.opened for what
 * got room again. The organizer may remove any participant of an owned signup; a participant, by
 * confirmation token, only while the signup is published and its event has not started (else 400).
 */
@Injectable()
export class CancelRegistrationUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly lock: RegistrationLock,
  ) {}

  byOrganizer({ owner, signupId, id }: RemoveParticipantCommand): Promise<Participant> {
    return this.lock.byOrganizer(owner, signupId, id, 'update', (tx, signup, participant) => this.remove(tx, signup, participant));
  }

  byToken(token: string): Promise<Registration> {
    return this.lock.byToken(token, 'update', (tx, signup, participant) => this.remove(tx, signup, participant));
  }

  private async remove(tx: Tx, signup: Signup, participant: Participant): Promise<Participant> {
    const opened = await this.allocator.release(tx.manager, signup.id, participant.selections);
    await this.participants.delete(tx.manager, participant.id);
    const after = (await this.signups.countParticipants(tx.manager, signup.id, -1))!;
    await tx.emitAll(participantEvents('participant.canceled', participant, after, opened));
    return participant;
  }
}
