import { Injectable } from '@nestjs/common';
import { missingRequiredPhone } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox, type Tx } from '#libs/runtime';
import { lockForTokenChange } from '../../signups/registration-window.js';
import type { Owner, Signup } from '../../signups/signup.js';
import { requireOwned } from '../../signups/signup.policy.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import type { Participant, RegistrationChanges } from '../participant.js';
import { participantEvents } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { RegistrationReader, registrationNotFound, type Registration } from '../registration-reader.js';
import { phoneRequired } from '../registration-refusal.js';
import { SelectionAllocator } from '../selection-allocator.js';

export interface ChangeParticipantCommand {
  owner: Owner;
  signupId: string;
  id: string;
  /** Validated: phone in E.164, selections normalized without duplicates. */
  changes: RegistrationChanges;
}

export function participantNotFound(): ProblemError {
  return new ProblemError('not_found', 'No participant with this id in this signup.');
}

/**
 * Edits a registration: contact fields, and selections that replace all others, re-allocated
 * all or nothing (SelectionAllocator.reallocate). The organizer may edit any registration of an
 * owned signup in any status; a participant, by confirmation token, only while the signup is
 * published and its event has not started (else 400). Lock order: the signup row first (shared:
 * edits run side by side, while a close, an edit or the deletion of the signup waits for them),
 * on which ownership or the change window is decided, then the participant row, so concurrent
 * edits of one registration apply one after the other; then its slots and items. An edit with no
 * field changes nothing and emits nothing; any other emits participant.updated and the slot/item
 * transitions it caused.
 */
@Injectable()
export class ChangeRegistrationUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly registrations: RegistrationReader,
    private readonly outbox: Outbox,
  ) {}

  byOrganizer({ owner, signupId, id, changes }: ChangeParticipantCommand): Promise<Participant> {
    return this.outbox.transaction(async (tx) => {
      const signup = requireOwned(await this.signups.lock(tx.manager, signupId, 'share'), owner);
      const participant = await this.participants.lock(tx.manager, id, signup.id);
      if (!participant) throw participantNotFound();
      return this.apply(tx, signup, participant, changes);
    });
  }

  async byToken(token: string, changes: RegistrationChanges): Promise<Registration> {
    const found = await this.registrations.byToken(token);
    return this.outbox.transaction(async (tx) => {
      const signup = await lockForTokenChange(this.signups, tx.manager, found.signupId, 'share', registrationNotFound);
      const participant = await this.participants.lock(tx.manager, found.id, signup.id);
      if (!participant) throw registrationNotFound();
      return this.registrations.withSignup(await this.apply(tx, signup, participant, changes), tx.manager);
    });
  }

  private async apply(tx: Tx, signup: Signup, participant: Participant, changes: RegistrationChanges): Promise<Participant> {
    if (missingRequiredPhone(signup, changes.phone !== null)) throw phoneRequired();
    if (Object.values(changes).every((value) => value === undefined)) return participant;
    const { selections, ...contact } = changes;
    const transitions = selections ? await this.allocator.reallocate(tx.manager, signup.id, participant.selections, selections) : [];
    if (selections) await this.participants.replaceSelections(tx.manager, participant.id, selections);
    const updated = await this.participants.update(tx.manager, participant.id, contact);
    await tx.emitAll(participantEvents('participant.updated', updated, signup, transitions));
    return updated;
  }
}
