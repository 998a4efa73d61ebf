import type { WaitlistState, WaitlistType } from '#libs/contracts';
import { type Stock, stockOf, type Target, type Transition, transitionOf } from '../signups/slot-item.js';

/** A line: the waiting entries of one slot, item, or the signup itself (its maxParticipants), in the order they joined. */
export interface Line {
  kind: WaitlistType;
  targetId: string;
}

/** A participant's place in a line, while it is in it (waiting, or holding an offer). */
export interface WaitlistEntry extends Line {
  id: string;
  signupId: string;
  participantId: string;
  quantity: number;
  state: WaitlistState;
  /** 1 for the next in line; null once offered. */
  position: number | null;
  joinedAt: Date;
  offeredAt: Date | null;
  offerExpiresAt: Date | null;
}

/** How an entry left its line: promoted into a place, its offer expired, or it left (declined, removed, cancelled). */
export type EndedState = 'promoted' | 'expired' | 'left';

/** An entry as stored, in any state: a second accept reads it after it ended. */
export type StoredEntry = Omit<WaitlistEntry, 'state' | 'position'> & { state: WaitlistState | EndedState };

export function lineKey(line: Line): string {
  return `${line.kind}:${line.targetId}`;
}

/** Lines without repeats, in the order first seen. */
export function distinctLines(lines: Line[]): Line[] {
  const seen = new Map<string, Line>();
  for (const line of lines) if (!seen.has(lineKey(line))) seen.set(lineKey(line), line);
  return [...seen.values()];
}

/** A slot's or item's fill transition from the first count a transaction saw to the last (filled, opened, or none). */
export interface TargetTransition {
  target: Target;
  transition: Transition;
}

/**
 * What a transaction did to the counts of slots and items, by the row each write returned: it
 * keeps, per slot or item, whether it was full before the first write and the row after the last,
 * so a place freed and given again to the next in line makes no opened-then-filled pair of events.
 */
export class StockLedger {
  private readonly seen = new Map<string, { before: Pick<Stock, 'total' | 'used'>; target: Target }>();

  /** A write left `target` so; `before` is its limit and count before that write. */
  record(target: Target, before: Pick<Stock, 'total' | 'used'>): void {
    const key = `${target.kind}:${target.id}`;
    const known = this.seen.get(key);
    this.seen.set(key, { before: known?.before ?? before, target });
  }

  /** A write moved what is taken by `delta` (the limit unchanged). */
  moved(target: Target, delta: number): void {
    const after = stockOf(target);
    this.record(target, { total: after.total, used: after.used - delta });
  }

  transitions(): TargetTransition[] {
    return [...this.seen.values()].flatMap(({ before, target }) => {
      const transition = transitionOf(before, stockOf(target));
      return transition ? [{ target, transition }] : [];
    });
  }
}
