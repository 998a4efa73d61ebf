import { Injectable } from '@nestjs/common';
import { ProblemError } from '#libs/problem';
import { Outbox, type Tx } from '#libs/runtime';
import { emitAll } from '../../common/pending-event.js';
import { changeClosureDetail, changeClosureOf } from '../../signups/registration-window.js';
import type { Owner, Signup } from '../../signups/signup.js';
import { requireOwned } from '../../signups/signup.policy.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import type { Participant, RegistrationChanges } from '../participant.js';
import { participantEvents } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { RegistrationReader, registrationNotFound, type Registration } from '../registration-reader.js';
import { SelectionAllocator } from '../selection-allocator.js';
import { sameHash } from '../confirmation-token.js';

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
 * published and its event has not started (else 400). The participant row is locked first, so
 * concurrent edits of one registration apply one after the other. An edit with no field
 * changes nothing and emits nothing; any other emits participant.updated and the slot/item
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

  async byOrganizer({ owner, signupId, id, changes }: ChangeParticipantCommand): Promise<Participant> {
    const signup = requireOwned(await this.signups.findById(signupId), owner);
    return this.outbox.transaction(async (tx) => {
      const participant = await this.participants.lock(tx.manager, id, signup.id);
      if (!participant) throw participantNotFound();
      return this.apply(tx, signup, participant, changes);
    });
  }

  async byToken(token: string, changes: RegistrationChanges): Promise<Registration> {
    const hash = this.registrations.tokenHash(token);
    const now = new Date();
    const participant = await this.outbox.transaction(async (tx) => {
      const locked = await this.participants.lockByTokenHash(tx.manager, hash);
      if (!locked || !sameHash(locked.tokenHash, hash)) throw registrationNotFound();
      const signup = (await this.signups.findById(locked.signupId, tx.manager))!;
      const closure = changeClosureOf(signup, now);
      if (closure) throw new ProblemError('bad_request', changeClosureDetail(closure));
      return this.apply(tx, signup, locked, changes);
    });
    return this.registrations.withSignup(participant);
  }

  private async apply(tx: Tx, signup: Signup, participant: Participant, changes: RegistrationChanges): Promise<Participant> {
    if (changes.phone === null && signup.requiresPhone) {
      throw ProblemError.validation([{ path: 'phone', message: 'Required' }], 'This signup requires a phone number.');
    }
    if (Object.values(changes).every((value) => value === undefined)) return participant;
    const { selections, ...contact } = changes;
    const transitions = selections ? await this.allocator.reallocate(tx.manager, signup.id, participant.selections, selections) : [];
    if (selections) await this.participants.replaceSelections(tx.manager, participant.id, selections);
    const updated = await this.participants.update(tx.manager, participant.id, contact);
    await emitAll(tx, participantEvents('participant.updated', updated, signup, transitions));
    return updated;
  }
}
