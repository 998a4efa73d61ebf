import { Injectable } from '@nestjs/common';
import { missingRequiredPhone } from '#libs/contracts';
import type { Tx } from '#libs/runtime';
import type { Owner, Signup } from '../../signups/signup.js';
import { answersOnEdit, invalidAnswers } from '../answers.js';
import type { Participant, RegistrationChanges } from '../participant.js';
import { participantEvents } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { RegistrationLock } from '../registration-lock.js';
import type { Registration } from '../registration-reader.js';
import { phoneRequired } from '../registration-refusal.js';
import { SelectionAllocator } from '../selection-allocator.js';

export interface ChangeParticipantCommand {
  owner: Owner;
  signupId: string;
  id: string;
  /** Validated: phone in E.164, selections normalized without duplicates. */
  changes: RegistrationChanges;
}

/**
 * Edits a registration: contact fields, answers merged into the stored ones (answersOnEdit: 422
 * when one does not fit or clears a required question), and selections that replace all others,
 * re-allocated all or nothing (SelectionAllocator.reallocate). The organizer may edit any registration of an
 * owned signup in any status; a participant, by confirmation token, only while the signup is
 * published and its event has not started (else 400). Lock order (RegistrationLock): the signup
 * row first (shared: edits run side by side, while a close, an edit or the deletion of the signup
 * waits for them), on which ownership or the change window is decided, then the participant row,
 * so concurrent edits of one registration apply one after the other; then its slots and items.
 * An edit with no field changes nothing and emits nothing; any other emits participant.updated
 * and the slot/item transitions it caused.
 */
@Injectable()
export class ChangeRegistrationUseCase {
  constructor(
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly lock: RegistrationLock,
  ) {}

  byOrganizer({ owner, signupId, id, changes }: ChangeParticipantCommand): Promise<Participant> {
    return this.lock.byOrganizer(owner, signupId, id, 'share', (tx, signup, participant) => this.apply(tx, signup, participant, changes));
  }

  byToken(token: string, changes: RegistrationChanges): Promise<Registration> {
    return this.lock.byToken(token, 'share', (tx, signup, participant) => this.apply(tx, signup, participant, changes));
  }

  private async apply(tx: Tx, signup: Signup, participant: Participant, changes: RegistrationChanges): Promise<Participant> {
    if (missingRequiredPhone(signup, changes.phone !== null)) throw phoneRequired();
    if (Object.values(changes).every((value) => value === undefined)) return participant;
    const { selections, answers: answerChanges, ...contact } = changes;
    const checked = answerChanges && answersOnEdit(signup.questions, participant.answers, answerChanges);
    if (checked && checked.errors.length > 0) throw invalidAnswers(checked.errors);
    const transitions = selections ? await this.allocator.reallocate(tx.manager, signup.id, participant.selections, selections) : [];
    if (selections) await this.participants.replaceSelections(tx.manager, participant.id, selections);
    const updated = await this.participants.update(tx.manager, participant.id, { ...contact, answers: checked?.answers });
    await tx.emitAll(participantEvents('participant.updated', updated, signup, transitions));
    return updated;
  }
}
