import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { PendingEvent } from '../common/pending-event.js';
import { participantEvents } from '../participants/participant.presenter.js';
import { ParticipantsRepository } from '../participants/participants.repository.js';
import { eventStarted } from '../signups/registration-window.js';
import type { Signup } from '../signups/signup.js';
import { SignupsRepository } from '../signups/signups.repository.js';
import { stockOf } from '../signups/slot-item.js';
import { SlotsItemsRepository } from '../signups/slots-items.repository.js';
import { distinctLines, type EndedState, type Line, type StockLedger, type StoredEntry } from './waitlist.js';
import { WaitlistRepository } from './waitlist.repository.js';

/**
 * The waitlist's rules, applied in the transaction of the write that calls them, which holds its
 * signup's row for update (every write that frees or takes a place does), so the lines and counts
 * of a signup change one transaction at a time:
 * - fill: gives every free place of the lines to the first waiting entry that fits (auto: at once;
 *   offer: held for offerMinutes), in the order entries joined, never one behind an entry that
 *   fits; a participant admitted to the signup from its own line then takes its turn in its
 *   slots' and items' lines;
 * - end: takes an entry out of its line, giving back the place an offer held; a participant that
 *   then holds nothing and waits for nothing is cancelled (freeing its place in the signup).
 * Counts only move by conditional UPDATEs within their limits, so nothing is ever overbooked.
 */
@Injectable()
export class Waitlists {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly contents: SlotsItemsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly entries: WaitlistRepository,
  ) {}

  /**
   * Fills the free places of the lines (and of the lines their promotions open); the events of
   * each promotion or offer. Once the signup's event has started, the lines stand still: a place
   * freed then (the organizer tidying up) goes to nobody, and no offer is made that could not be
   * taken in time.
   */
  async fill(db: EntityManager, signup: Signup, lines: Line[], ledger: StockLedger): Promise<PendingEvent[]> {
    if (eventStarted(signup, new Date())) return [];
    const queue = distinctLines(lines);
    const events: PendingEvent[] = [];
    while (queue.length > 0) {
      const line = queue.shift()!;
      for (;;) {
        const free = await this.free(db, signup.id, line);
        const entry = free > 0 ? await this.entries.nextInLine(db, signup.id, line, free) : undefined;
        if (!entry || !(await this.take(db, signup.id, entry, ledger))) break;
        if (signup.waitlist.mode === 'offer') {
          await this.entries.offer(db, entry.id, signup.waitlist.offerMinutes);
          events.push(...(await this.settled(db, signup, entry.participantId, 'participant.offered')));
        } else {
          queue.push(...(await this.admit(db, entry)));
          events.push(...(await this.settled(db, signup, entry.participantId, 'participant.promoted')));
        }
      }
    }
    return events;
  }

  /**
   * Moves an entry into the place it holds or was given (the count was taken): a slot or item
   * joins the participant's selections; the signup's own line admits it, and its other lines are
   * returned, for the caller to fill.
   */
  async admit(db: EntityManager, entry: StoredEntry): Promise<Line[]> {
    await this.entries.end(db, entry.id, 'promoted');
    if (entry.kind !== 'signup') {
      await this.participants.addSelection(db, entry.participantId, { type: entry.kind, id: entry.targetId, quantity: entry.quantity });
      return [];
    }
    return (await this.entries.lockActiveOf(db, entry.participantId)).map(({ kind, targetId }) => ({ kind, targetId }));
  }

  /** Takes the places an entry asks for in its line's count; false when they are not free. */
  async take(db: EntityManager, signupId: string, entry: StoredEntry, ledger: StockLedger): Promise<boolean> {
    if (entry.kind === 'signup') {
      const signup = await this.signups.findById(signupId, db);
      if (!signup || (signup.maxParticipants !== null && signup.participantCount >= signup.maxParticipants)) return false;
      await this.signups.countParticipants(db, signupId, 1);
      return true;
    }
    const adjusted = await this.contents.adjust(db, entry.kind, signupId, entry.targetId, entry.quantity);
    if (adjusted) ledger.moved(adjusted.target, entry.quantity);
    return adjusted !== undefined;
  }

  /**
   * Takes an entry out of its line (state: left or expired), giving back the place an offer held.
   * Leaving the signup's own line ends the registration (its other lines wait on admission); a
   * participant left holding nothing and waiting for nothing is cancelled, and its place in the
   * signup given back. Answers the lines to fill.
   */
  async end(
    db: EntityManager,
    signup: Signup,
    entry: StoredEntry,
    state: Exclude<EndedState, 'promoted'>,
    ledger: StockLedger,
  ): Promise<Line[]> {
    await this.entries.end(db, entry.id, state);
    const freed: Line[] = entry.state === 'offered' ? [await this.giveBack(db, signup.id, entry, ledger)] : [];
    if (entry.kind === 'signup') {
      for (const other of await this.entries.lockActiveOf(db, entry.participantId)) await this.entries.end(db, other.id, 'left');
      await this.participants.cancel(db, entry.participantId);
      return freed;
    }
    const participant = await this.participants.read(db, entry.participantId);
    if (participant.status !== 'cancelled' && participant.selections.length === 0 && participant.waitlist.length === 0) {
      await this.participants.cancel(db, participant.id);
      freed.push(await this.leaveSignup(db, signup.id));
    } else {
      await this.participants.refreshStatus(db, participant.id);
    }
    return freed;
  }

  /**
   * Cancels a participant: gives back what it holds (the caller gave back its selections) and
   * what its offers hold, takes it out of every line, and out of the signup's count when it was
   * in it. Answers the lines to fill.
   */
  async cancel(db: EntityManager, signup: Signup, participantId: string, ledger: StockLedger): Promise<Line[]> {
    const active = await this.entries.lockActiveOf(db, participantId);
    const counted = !active.some((entry) => entry.kind === 'signup' && entry.state === 'waiting');
    const freed: Line[] = [];
    for (const entry of active) {
      await this.entries.end(db, entry.id, 'left');
      // An offer of the signup's own place is that count, given back below.
      if (entry.state === 'offered' && entry.kind !== 'signup') freed.push(await this.giveBack(db, signup.id, entry, ledger));
    }
    await this.participants.cancel(db, participantId);
    if (counted) freed.push(await this.leaveSignup(db, signup.id));
    return freed;
  }

  /** Counts a cancelled participant out of the signup: its line has a place again. */
  async leaveSignup(db: EntityManager, signupId: string): Promise<Line> {
    await this.signups.countParticipants(db, signupId, -1);
    return { kind: 'signup', targetId: signupId };
  }

  /** The participant's status as its holdings make it, and the event of the change that made it. */
  async settled(
    db: EntityManager,
    signup: Signup,
    participantId: string,
    type: Parameters<typeof participantEvents>[0],
  ): Promise<PendingEvent[]> {
    await this.participants.refreshStatus(db, participantId);
    return participantEvents(type, await this.participants.read(db, participantId), signup, []);
  }

  private async giveBack(db: EntityManager, signupId: string, entry: StoredEntry, ledger: StockLedger): Promise<Line> {
    if (entry.kind === 'signup') {
      await this.signups.countParticipants(db, signupId, -1);
    } else {
      const adjusted = await this.contents.adjust(db, entry.kind, signupId, entry.targetId, -entry.quantity);
      if (adjusted) ledger.moved(adjusted.target, -entry.quantity);
    }
    return { kind: entry.kind, targetId: entry.targetId };
  }

  /** Places free in a line now: its limit less what is taken (and held by offers); Infinity for a signup without maxParticipants. */
  private async free(db: EntityManager, signupId: string, line: Line): Promise<number> {
    if (line.kind === 'signup') {
      const signup = await this.signups.findById(signupId, db);
      if (!signup) return 0;
      return signup.maxParticipants === null ? Infinity : signup.maxParticipants - signup.participantCount;
    }
    const target = await this.contents.find(line.kind, signupId, line.targetId, db);
    if (!target) return 0;
    const { total, used } = stockOf(target);
    return total - used;
  }
}
