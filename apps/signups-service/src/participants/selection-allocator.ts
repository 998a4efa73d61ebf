import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { FailureReason } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { isFull, notFoundMessage, shortageMessage, stockOf, type Target, type Transition } from '../signups/slot-item.js';
import { SlotsItemsRepository } from '../signups/slots-items.repository.js';
import type { StockLedger } from '../waitlist/waitlist.js';
import type { Selection } from './participant.js';
import { deltasOf, keyOf } from './selections.js';

/** What became of one selection of a registration. */
export type Allocation =
  | { selection: Selection; confirmed: true; target: Target; transition?: Transition }
  | { selection: Selection; confirmed: false; reason: FailureReason; message: string; waitable: boolean };

/**
 * Takes and gives back places of slots and quantities of items, always by a conditional UPDATE
 * of the slot's or item's own count (never read, then write): an edit touches rows in lock order;
 * a registration takes them all in its one statement, while it holds its signup's row, which
 * every other write of the signup's slots and items locks first.
 */
@Injectable()
export class SelectionAllocator {
  constructor(private readonly contents: SlotsItemsRepository) {}

  /**
   * A registration, each selection on its own, once its statement has taken what had room
   * (ParticipantsRepository.register): a selection taken is confirmed ('filled' when it took the
   * last of it); one not taken is full or not_found, read again for the message (and waitable
   * when it asks for no more than the slot's or item's limit: it could join its line). Answers in
   * the order of the selections.
   */
  async outcomes(db: EntityManager, signupId: string, selections: Selection[], taken: Target[]): Promise<Allocation[]> {
    const takenByKey = new Map(taken.map((target) => [keyOf({ type: target.kind, id: target.id }), target]));
    return Promise.all(
      selections.map(async (selection): Promise<Allocation> => {
        const target = takenByKey.get(keyOf(selection));
        if (target) return { selection, confirmed: true, target, ...(isFull(stockOf(target)) && { transition: 'filled' as const }) };
        const found = await this.contents.find(selection.type, signupId, selection.id, db);
        return found
          ? {
              selection,
              confirmed: false,
              reason: 'full',
              message: shortageMessage(selection.type, stockOf(found), selection.quantity),
              waitable: selection.quantity <= stockOf(found).total,
            }
          : { selection, confirmed: false, reason: 'not_found', message: notFoundMessage(selection.type), waitable: false };
      }),
    );
  }

  /**
   * An edit: replaces `before` by `after` all or nothing, as one net change per slot or item.
   * A slot or item not in the signup is a 422 on its selections.<i>.id; one without room enough
   * is a 409 naming it. The caller's transaction rolls everything back on either. Each count
   * moved is recorded in the ledger.
   */
  async reallocate(db: EntityManager, signupId: string, before: Selection[], after: Selection[], ledger: StockLedger): Promise<void> {
    const present = after.length > 0 ? await this.contents.existing(signupId, after, db) : new Set<string>();
    const missing = after.flatMap((s, i) =>
      present.has(`${s.type}:${s.id}`) ? [] : [{ path: `selections.${i}.id`, message: notFoundMessage(s.type) }],
    );
    if (missing.length > 0) throw ProblemError.validation(missing);
    for (const { type, id, delta, index } of deltasOf(before, after)) {
      const adjusted = await this.contents.adjust(db, type, signupId, id, delta);
      if (!adjusted) {
        // A give-back always fits (a slot or item with registrations cannot be deleted); only a
        // take can miss: the slot or item is full, or was deleted since the check above.
        if (delta < 0) continue;
        const target = await this.contents.find(type, signupId, id, db);
        if (!target) throw ProblemError.validation([{ path: `selections.${index}.id`, message: notFoundMessage(type) }]);
        throw new ProblemError(
          'conflict',
          `Cannot take ${delta} more of ${type} ${id}: ${shortageMessage(type, stockOf(target), delta)} Nothing was changed.`,
        );
      }
      ledger.moved(adjusted.target, delta);
    }
  }

  /** Gives back everything a participant holds (a cancellation). */
  release(db: EntityManager, signupId: string, selections: Selection[], ledger: StockLedger): Promise<void> {
    return this.reallocate(db, signupId, selections, [], ledger);
  }
}
