import { Injectable } from '@nestjs/common';
import { type CreateItemInput, type CreateSlotInput, newId, type UpdateItemInput, type UpdateSlotInput } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox, type Tx } from '#libs/runtime';
import { StockLedger } from '../../waitlist/waitlist.js';
import { WaitlistRepository } from '../../waitlist/waitlist.repository.js';
import { Waitlists } from '../../waitlist/waitlists.js';
import type { Owner, Signup } from '../signup.js';
import { requireActionable, requireOwned } from '../signup.policy.js';
import { SignupPrecondition } from '../signup-precondition.js';
import { appliesFrom } from '../signup-state.js';
import { SignupsRepository } from '../signups.repository.js';
import { type Item, type Kind, notFoundMessage, type Slot, stockOf, type Target, targetName, type TargetOf } from '../slot-item.js';
import { slotUpdatedEvent, transitionEvent } from '../slot-item.presenter.js';
import { type ChangesOf, type OwnedSignup, SlotsItemsRepository } from '../slots-items.repository.js';

export interface OfSignupCommand {
  owner: Owner;
  signupId: string;
  /** The request's If-Match: the signup's ETag (its representation holds its slots and items), checked once its row is locked. */
  ifMatch?: string;
}

export interface TargetCommand<K extends Kind> extends OfSignupCommand {
  kind: K;
  id: string;
}

/** A conditional write that missed is explained by re-reading; if the re-read shows nothing in the way, it is tried again once. */
const ATTEMPTS = 2;

function changedMeanwhile(): ProblemError {
  return new ProblemError('conflict', 'The slot or item changed while this request ran; retry it.');
}

function asDate<T extends null | undefined>(value: string | T): Date | T {
  return typeof value === 'string' ? new Date(value) : value;
}

export function slotChanges(input: UpdateSlotInput): ChangesOf<'slot'> {
  return {
    title: input.title,
    description: input.description,
    startTime: asDate(input.startTime),
    endTime: asDate(input.endTime),
    capacity: input.capacity,
  };
}

export function itemChanges(input: UpdateItemInput): ChangesOf<'item'> {
  return { name: input.name, notes: input.notes, quantityNeeded: input.quantityNeeded };
}

/** A slot that ends before it starts, as a validation error on the field that was given. */
export function timeOrderErrors(startTime: Date | null, endTime: Date | null, prefix = ''): { path: string; message: string }[] {
  return startTime && endTime && endTime.getTime() < startTime.getTime()
    ? [{ path: `${prefix}endTime`, message: 'Must not be before startTime' }]
    : [];
}

/**
 * Slots and items of an owned signup: add (several at once), list, edit, delete. Writes are
 * refused on a closed signup (409, like editing it). A limit may not drop below what is taken,
 * and a slot or item with registrations or anyone in its line cannot be deleted (both 409):
 * nothing is lost silently.
 * An edit of a slot emits slot.updated (the slot as edited: the reminders-service mails its
 * participants what moved); an edit that fills or opens a slot or item emits slot/item.filled or
 * .opened; places a raised limit frees go to the first in its line who fits (Waitlists.fill), in
 * the same transaction. An edit or deletion with If-Match is checked against the signup's ETag in
 * that transaction, once the signup's row is locked (SignupPrecondition).
 */
@Injectable()
export class ManageSlotsItemsUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly contents: SlotsItemsRepository,
    private readonly waitlists: Waitlists,
    private readonly entries: WaitlistRepository,
    private readonly outbox: Outbox,
    private readonly precondition: SignupPrecondition,
  ) {}

  async list<K extends Kind>({ owner, signupId }: OfSignupCommand, kind: K): Promise<TargetOf<K>[]> {
    requireOwned(await this.signups.findById(signupId), owner);
    return this.contents.list(kind, signupId);
  }

  async createSlots(command: OfSignupCommand, input: CreateSlotInput[]): Promise<Slot[]> {
    const errors = input.flatMap((s, i) => timeOrderErrors(asDate(s.startTime) ?? null, asDate(s.endTime) ?? null, `slots.${i}.`));
    if (errors.length > 0) throw ProblemError.validation(errors);
    const slots = input.map((s) => ({
      id: newId(),
      title: s.title,
      description: s.description ?? null,
      startTime: asDate(s.startTime) ?? null,
      endTime: asDate(s.endTime) ?? null,
      capacity: s.capacity,
    }));
    return this.create(command, slots.length, (where) => this.locked(command, (tx) => this.contents.insertSlots(tx.manager, where, slots)));
  }

  async createItems(command: OfSignupCommand, input: CreateItemInput[]): Promise<Item[]> {
    const items = input.map((i) => ({ id: newId(), name: i.name, notes: i.notes ?? null, quantityNeeded: i.quantityNeeded }));
    return this.create(command, items.length, (where) => this.locked(command, (tx) => this.contents.insertItems(tx.manager, where, items)));
  }

  async update<K extends Kind>(command: TargetCommand<K>, changes: ChangesOf<K>): Promise<TargetOf<K>> {
    const { signupId, kind, id } = command;
    if (!Object.values(changes).some((value) => value !== undefined)) {
      if (command.ifMatch !== undefined) await this.locked(command, async () => undefined);
      return this.existing(command);
    }
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const edited = await this.locked(command, async (tx, signup) => {
        const result = await this.contents.update(tx.manager, kind, this.writable(command), id, changes);
        if (!result) return undefined;
        const ledger = new StockLedger();
        ledger.record(result.target, { total: result.previousTotal, used: stockOf(result.target).used });
        const promotions = await this.waitlists.fill(tx.manager, signup, [{ kind, targetId: id }], ledger);
        const transitions = ledger.transitions().map(({ target, transition }) => transitionEvent(target, transition, signup));
        const current = promotions.length > 0 ? await this.contents.find(kind, signupId, id, tx.manager) : result.target;
        const target: Target | undefined = current;
        const updated = target?.kind === 'slot' ? [slotUpdatedEvent(target, signup)] : [];
        await tx.emitAll([...updated, ...transitions, ...promotions]);
        return current;
      });
      if (edited) return edited;
      this.explainRefusedEdit(await this.existing(command), changes);
    }
    throw changedMeanwhile();
  }

  async delete<K extends Kind>(command: TargetCommand<K>): Promise<TargetOf<K>> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const deleted = await this.locked(command, (tx) =>
        this.contents.delete(tx.manager, command.kind, this.writable(command), command.id),
      );
      if (deleted) return deleted;
      const { used, label } = stockOf(await this.existing(command));
      if (used > 0) {
        throw new ProblemError(
          'conflict',
          `${targetName(command.kind, label)} has registrations (${used} taken): remove them or move them to another ${command.kind} before deleting it.`,
        );
      }
      const waiting = await this.entries.lineLength(command.signupId, { kind: command.kind, targetId: command.id });
      if (waiting > 0) {
        throw new ProblemError(
          'conflict',
          `${targetName(command.kind, label)} has ${waiting} ${waiting === 1 ? 'person' : 'people'} in its waitlist: remove them from it before deleting it.`,
        );
      }
    }
    throw changedMeanwhile();
  }

  /** Why an edit of an existing slot or item of a writable signup did not apply: its limit, or a slot's times. */
  private explainRefusedEdit<K extends Kind>(existing: TargetOf<K>, changes: ChangesOf<K>): void {
    const target: Target = existing;
    const stock = stockOf(target);
    const total = target.kind === 'slot' ? (changes as ChangesOf<'slot'>).capacity : (changes as ChangesOf<'item'>).quantityNeeded;
    if (total !== undefined && total < stock.used) {
      const [field, what] = target.kind === 'slot' ? ['capacity', 'places already taken in'] : ['quantityNeeded', 'already claimed of'];
      throw new ProblemError('conflict', `${field} cannot drop below the ${stock.used} ${what} ${targetName(target.kind, stock.label)}.`);
    }
    if (target.kind === 'slot') {
      const slot = changes as ChangesOf<'slot'>;
      const errors = timeOrderErrors(
        slot.startTime === undefined ? target.startTime : slot.startTime,
        slot.endTime === undefined ? target.endTime : slot.endTime,
      );
      if (errors.length > 0) throw ProblemError.validation(errors);
    }
  }

  private async create<T>(command: OfSignupCommand, count: number, insert: (where: OwnedSignup) => Promise<T[] | undefined>): Promise<T[]> {
    if (count > 0) {
      const created = await insert(this.writable(command));
      if (created) return created;
    }
    requireActionable(await this.signups.findById(command.signupId), command.owner, 'update');
    if (count > 0) throw new ProblemError('not_found', 'No signup with this id.');
    return [];
  }

  /**
   * A transaction that first locks the signup row for update, as every write of its places does
   * (lock order: signup, participant, slots, items): it neither deadlocks with the deletion of the
   * signup nor with registrations and edits, the signup cannot close meanwhile, and the places a
   * raised limit frees go to its line before anything else of the signup's places changes.
   * The work is not run when there is no such signup (the write's own re-read explains why), nor
   * when If-Match names no current tag of the signup (412).
   */
  private locked<T>(
    { owner, signupId, ifMatch }: OfSignupCommand,
    work: (tx: Tx, signup: Signup) => Promise<T | undefined>,
  ): Promise<T | undefined> {
    return this.outbox.transaction(async (tx) => {
      const signup = await this.signups.lock(tx.manager, signupId, 'update');
      await this.precondition.require(tx.manager, owner, signupId, ifMatch);
      return signup && work(tx, signup);
    });
  }

  /** Writes to slots and items apply where edits of the signup do: owned, not closed. */
  private writable({ owner, signupId }: OfSignupCommand): OwnedSignup {
    return { owner, signupId, statuses: appliesFrom('update') };
  }

  /** The slot or item after a write did not apply: the signup's refusal first (404, 403, 409), then 404 for the slot or item. */
  private async existing<K extends Kind>({ owner, signupId, kind, id }: TargetCommand<K>): Promise<TargetOf<K>> {
    requireActionable(await this.signups.findById(signupId), owner, 'update');
    const target = await this.contents.find(kind, signupId, id);
    if (!target) throw new ProblemError('not_found', notFoundMessage(kind));
    return target;
  }
}
