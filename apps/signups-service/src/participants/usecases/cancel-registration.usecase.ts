import { Injectable } from '@nestjs/common';
import type { Tx } from '#libs/runtime';
import type { Owner, Signup } from '../../signups/signup.js';
import { StockLedger } from '../../waitlist/waitlist.js';
import { Waitlists } from '../../waitlist/waitlists.js';
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
  /** The request's If-Match: the participant's ETag, checked once both rows are locked (RegistrationLock). */
  ifMatch?: string;
}

/**
 * Cancels a registration and frees what it held at once, in one transaction: the signup row is
 * locked first (every write that frees or takes a place queues there) and ownership or the change
 * window is decided on it, then the participant row is locked (RegistrationLock). Its slots and
 * items are given back, it leaves every line it was in (an offer's place given back), it stays
 * with status cancelled and the signup's participant_count goes down by one when it was counted;
 * then every place this freed goes to the first in line who fits (Waitlists.fill). A registration
 * already cancelled is answered as it is, changing nothing: concurrent cancellations apply once.
 * Emits participant.canceled, the promotions or offers it caused, and slot/item.opened or .filled
 * as the counts end up. The organizer may cancel any participant of an owned signup; a
 * participant, by confirmation token, only while the signup is published and its event has not
 * started (else 400).
 */
@Injectable()
export class CancelRegistrationUseCase {
  constructor(
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly waitlists: Waitlists,
    private readonly lock: RegistrationLock,
  ) {}

  byOrganizer({ owner, signupId, id, ifMatch }: RemoveParticipantCommand): Promise<Participant> {
    return this.lock.byOrganizer(owner, signupId, id, (tx, signup, participant) => this.cancel(tx, signup, participant), ifMatch);
  }

  /** ifMatch: the registration's ETag, checked once both rows are locked. */
  byToken(token: string, ifMatch?: string): Promise<Registration> {
    return this.lock.byToken(token, (tx, signup, participant) => this.cancel(tx, signup, participant), 'change', ifMatch);
  }

  private async cancel(tx: Tx, signup: Signup, participant: Participant): Promise<Participant> {
    if (participant.status === 'cancelled') return participant;
    const ledger = new StockLedger();
    await this.allocator.release(tx.manager, signup.id, participant.selections, ledger);
    const freed = [
      ...participant.selections.map((s) => ({ kind: s.type, targetId: s.id })),
      ...(await this.waitlists.cancel(tx.manager, signup, participant.id, ledger)),
    ];
    const promotions = await this.waitlists.fill(tx.manager, signup, freed, ledger);
    const cancelled = await this.participants.read(tx.manager, participant.id);
    await tx.emitAll([...participantEvents('participant.canceled', cancelled, signup, ledger.transitions()), ...promotions]);
    return cancelled;
  }
}
