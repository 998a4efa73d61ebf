import { Injectable } from '@nestjs/common';
import {
  type CursorList,
  decodeCursor,
  DEFAULT_PAGE_SIZE,
  encodeCursor,
  type Page,
  pageOf,
  requireIfMatch,
  type WaitlistType,
} from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox, type Tx } from '#libs/runtime';
import type { Owner, Signup } from '../../signups/signup.js';
import { requireOwned } from '../../signups/signup.policy.js';
import { SignupsRepository } from '../../signups/signups.repository.js';
import { transitionEvent } from '../../signups/slot-item.presenter.js';
import { StockLedger, type StoredEntry } from '../../waitlist/waitlist.js';
import { type WaitlistedEntry, WaitlistRepository } from '../../waitlist/waitlist.repository.js';
import { Waitlists } from '../../waitlist/waitlists.js';
import type { Participant } from '../participant.js';
import { participantEvents, participantView } from '../participant.presenter.js';
import { ParticipantsRepository } from '../participants.repository.js';
import { RegistrationLock } from '../registration-lock.js';
import type { Registration } from '../registration-reader.js';

export interface WaitlistListQuery {
  owner: Owner;
  signupId: string;
  cursor?: string;
  limit?: number;
  kind?: WaitlistType;
  targetId?: string;
}

export interface EntryCommand {
  owner: Owner;
  signupId: string;
  entryId: string;
  /** The request's If-Match: the ETag of the entry's participant, checked once the signup, the entry and the participant are locked. */
  ifMatch?: string;
}

function entryNotFound(): ProblemError {
  return new ProblemError('not_found', 'No waitlist entry with this id in this signup.');
}

/** Why an entry that left its line cannot be accepted. */
function ended(entry: StoredEntry): ProblemError {
  return entry.state === 'expired'
    ? new ProblemError('conflict', `This offer expired at ${entry.offerExpiresAt!.toISOString()}; the place passed to the next in line.`)
    : new ProblemError('conflict', 'This registration is no longer in this line.');
}

/**
 * The lines of a signup: the organizer reads them in order, promotes someone by hand or takes
 * them out; a participant, by confirmation token, accepts an offer or leaves a line (declining
 * its offer). Every change locks the signup row for update first (RegistrationLock), then the
 * participant, then the entry, so a cancellation and an acceptance of one registration end in
 * one outcome: whichever comes second sees what the first did.
 */
@Injectable()
export class WaitlistUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly participants: ParticipantsRepository,
    private readonly entries: WaitlistRepository,
    private readonly waitlists: Waitlists,
    private readonly lock: RegistrationLock,
    private readonly outbox: Outbox,
  ) {}

  async list({ owner, signupId, cursor, limit = DEFAULT_PAGE_SIZE, kind, targetId }: WaitlistListQuery): Promise<Page<WaitlistedEntry>> {
    const list: CursorList = { list: 'signups.waitlist.list', ...owner, parentId: signupId, filters: { kind, targetId } };
    const after = cursor === undefined ? undefined : decodeCursor(cursor, 'joinedAt', list).id;
    requireOwned(await this.signups.findById(signupId), owner);
    const rows = await this.entries.list(signupId, { kind, targetId }, after, limit + 1);
    return pageOf(rows, limit, (last) => encodeCursor({ joinedAt: last.joinedAt.toISOString(), id: last.id }, list));
  }

  /**
   * The organizer moves an entry into its place: an offer is accepted for them; a waiting entry
   * takes a free place now (409 when its slot, item or signup has none free, or when it is for a
   * slot or item and the participant still waits for a place in the signup).
   */
  promote({ owner, signupId, entryId }: EntryCommand): Promise<Participant> {
    return this.byOrganizer(owner, signupId, entryId, async (tx, signup, entry) => {
      const ledger = new StockLedger();
      if (entry.state === 'waiting') {
        if (entry.kind !== 'signup' && (await this.waitsForSignup(tx, entry.participantId))) {
          throw new ProblemError('conflict', 'This participant still waits for a place in the signup: promote that entry first.');
        }
        if (!(await this.waitlists.take(tx.manager, signup.id, entry, ledger))) {
          throw new ProblemError('conflict', `No place is free for this entry: raise the ${entry.kind}'s limit, or remove someone, first.`);
        }
      }
      return this.admit(tx, signup, entry, ledger);
    });
  }

  /** The organizer takes an entry out of its line; an offer's place passes on. */
  remove({ owner, signupId, entryId, ifMatch }: EntryCommand): Promise<Participant> {
    return this.byOrganizer(owner, signupId, entryId, (tx, signup, entry) => this.leaveLine(tx, signup, entry), ifMatch);
  }

  /**
   * The participant accepts an offer, until the event starts (also once the signup is closed):
   * once accepted, accepting again answers the same; an offer past its time (by the database's
   * clock, which set it and sweeps it) is 409 (the sweep passes it on), as is an entry that is
   * not offered.
   */
  accept(token: string, entryId: string): Promise<Registration> {
    return this.lock.byToken(
      token,
      async (tx, signup, participant) => {
        const entry = await this.entries.lockOf(tx.manager, participant.id, entryId);
        if (!entry) throw entryNotFound();
        if (entry.state === 'promoted') return participant;
        if (entry.state === 'expired' || entry.state === 'left') throw ended(entry);
        if (entry.state === 'waiting') throw new ProblemError('conflict', 'No place is offered for this entry yet; it is still in line.');
        if (entry.pastDue) throw ended({ ...entry, state: 'expired' });
        return this.admit(tx, signup, entry, new StockLedger());
      },
      'line',
    );
  }

  /**
   * The participant leaves a line (declining its offer), until the event starts; leaving one already left answers the same.
   * ifMatch: the registration's ETag, checked once the signup and the participant are locked (RegistrationLock).
   */
  leave(token: string, entryId: string, ifMatch?: string): Promise<Registration> {
    return this.lock.byToken(
      token,
      async (tx, signup, participant) => {
        const entry = await this.entries.lockOf(tx.manager, participant.id, entryId);
        if (!entry) throw entryNotFound();
        if (entry.state !== 'waiting' && entry.state !== 'offered') return participant;
        return this.leaveLine(tx, signup, entry);
      },
      'line',
      ifMatch,
    );
  }

  private async leaveLine(tx: Tx, signup: Signup, entry: StoredEntry): Promise<Participant> {
    const ledger = new StockLedger();
    const freed = await this.waitlists.end(tx.manager, signup, entry, 'left', ledger);
    const promotions = await this.waitlists.fill(tx.manager, signup, freed, ledger);
    const after = await this.participants.read(tx.manager, entry.participantId);
    const type = after.status === 'cancelled' ? 'participant.canceled' : 'participant.updated';
    await tx.emitAll([...participantEvents(type, after, signup, ledger.transitions()), ...promotions]);
    return after;
  }

  /** Moves an entry whose place is taken into it, fills what that opens (the signup's own line admits to the others), and emits. */
  private async admit(tx: Tx, signup: Signup, entry: StoredEntry, ledger: StockLedger): Promise<Participant> {
    const lines = await this.waitlists.admit(tx.manager, entry);
    const promoted = await this.waitlists.settled(tx.manager, signup, entry.participantId, 'participant.promoted');
    const promotions = await this.waitlists.fill(tx.manager, signup, lines, ledger);
    await tx.emitAll([
      ...promoted,
      ...promotions,
      ...ledger.transitions().map(({ target, transition }) => transitionEvent(target, transition, signup)),
    ]);
    return this.participants.read(tx.manager, entry.participantId);
  }

  private async waitsForSignup(tx: Tx, participantId: string): Promise<boolean> {
    return (await this.entries.lockActiveOf(tx.manager, participantId)).some((e) => e.kind === 'signup');
  }

  private byOrganizer(
    owner: Owner,
    signupId: string,
    entryId: string,
    work: (tx: Tx, signup: Signup, entry: StoredEntry) => Promise<Participant>,
    ifMatch?: string,
  ): Promise<Participant> {
    return this.outbox.transaction(async (tx) => {
      const signup = requireOwned(await this.signups.lock(tx.manager, signupId, 'update'), owner);
      const found = await this.entries.lockActive(tx.manager, signup.id, entryId);
      if (!found) throw entryNotFound();
      const participant = await this.participants.lock(tx.manager, found.participantId, signup.id);
      requireIfMatch(ifMatch, participantView(participant!, signup.livemode));
      return work(tx, signup, found);
    });
  }
}
