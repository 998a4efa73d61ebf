import { Injectable } from '@nestjs/common';
import { missingRequiredPhone } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Tx } from '#libs/runtime';
import type { Owner, Signup } from '../../signups/signup.js';
import { type Line, lineKey, StockLedger } from '../../waitlist/waitlist.js';
import { Waitlists } from '../../waitlist/waitlists.js';
import { answersOnEdit, invalidAnswers } from '../answers.js';
import type { Participant, RegistrationChanges, Selection } from '../participant.js';
import { participantEvents } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { RegistrationLock } from '../registration-lock.js';
import type { Registration } from '../registration-reader.js';
import { phoneRequired } from '../registration-refusal.js';
import { SelectionAllocator } from '../selection-allocator.js';
import { deltasOf } from '../selections.js';

export interface ChangeParticipantCommand {
  owner: Owner;
  signupId: string;
  id: string;
  /** Validated: phone in E.164, selections normalized without duplicates. */
  changes: RegistrationChanges;
  /** The request's If-Match: the participant's ETag, checked once both rows are locked (RegistrationLock). */
  ifMatch?: string;
}

/**
 * Edits a registration: contact fields, answers merged into the stored ones (answersOnEdit: 422
 * when one does not fit or clears a required question), and selections that replace all others,
 * re-allocated all or nothing (SelectionAllocator.reallocate). The organizer may edit any registration of an
 * owned signup in any status; a participant, by confirmation token, only while the signup is
 * published and its event has not started (else 400). Lock order (RegistrationLock): the signup
 * row first, for update (places an edit gives back go to the first in line who fits,
 * Waitlists.fill, so the writes of one signup's places run one at a time), on which ownership or
 * the change window is decided, then the participant row, then its slots and items. An edit with
 * no field changes nothing and emits nothing; any other emits participant.updated and the
 * slot/item transitions it caused. A line the edit now holds a place of is left. A cancelled registration cannot be edited (409), nor can the
 * selections of one that waits in the signup's own line (409: it holds no place in the signup yet).
 */
@Injectable()
export class ChangeRegistrationUseCase {
  constructor(
    private readonly participants: ParticipantsRepository,
    private readonly allocator: SelectionAllocator,
    private readonly waitlists: Waitlists,
    private readonly lock: RegistrationLock,
  ) {}

  byOrganizer({ owner, signupId, id, changes, ifMatch }: ChangeParticipantCommand): Promise<Participant> {
    return this.lock.byOrganizer(owner, signupId, id, (tx, signup, participant) => this.apply(tx, signup, participant, changes), ifMatch);
  }

  /** ifMatch: the registration's ETag, checked once both rows are locked. */
  byToken(token: string, changes: RegistrationChanges, ifMatch?: string): Promise<Registration> {
    return this.lock.byToken(token, (tx, signup, participant) => this.apply(tx, signup, participant, changes), 'change', ifMatch);
  }

  private async apply(tx: Tx, signup: Signup, participant: Participant, changes: RegistrationChanges): Promise<Participant> {
    if (missingRequiredPhone(signup, changes.phone !== null)) throw phoneRequired();
    if (Object.values(changes).every((value) => value === undefined)) return participant;
    if (participant.status === 'cancelled') throw new ProblemError('conflict', 'This registration is cancelled and cannot be changed.');
    const { selections, answers: answerChanges, ...contact } = changes;
    const checked = answerChanges && answersOnEdit(signup.questions, participant.answers, answerChanges);
    if (checked && checked.errors.length > 0) throw invalidAnswers(checked.errors);
    const ledger = new StockLedger();
    const promotions = selections ? await this.reselect(tx, signup, participant, selections, ledger) : [];
    const updated = await this.participants.update(tx.manager, participant.id, { ...contact, answers: checked?.answers });
    await tx.emitAll([...participantEvents('participant.updated', updated, signup, ledger.transitions()), ...promotions]);
    return updated;
  }

  /** Replaces the selections all or nothing, leaves the lines of what it now holds, and gives what it freed to those in line. */
  private async reselect(tx: Tx, signup: Signup, participant: Participant, selections: Selection[], ledger: StockLedger) {
    if (participant.waitlist.some((entry) => entry.kind === 'signup')) {
      throw new ProblemError('conflict', 'This registration waits for a place in the signup: its selections can change once it has one.');
    }
    await this.allocator.reallocate(tx.manager, signup.id, participant.selections, selections, ledger);
    await this.participants.replaceSelections(tx.manager, participant.id, selections);
    const held = new Set(selections.map((s) => lineKey({ kind: s.type, targetId: s.id })));
    const freed: Line[] = deltasOf(participant.selections, selections).flatMap((d) =>
      d.delta < 0 ? [{ kind: d.type, targetId: d.id }] : [],
    );
    for (const entry of participant.waitlist) {
      if (held.has(lineKey(entry))) freed.push(...(await this.waitlists.end(tx.manager, signup, entry, 'left', ledger)));
    }
    await this.participants.refreshStatus(tx.manager, participant.id);
    return this.waitlists.fill(tx.manager, signup, freed, ledger);
  }
}
