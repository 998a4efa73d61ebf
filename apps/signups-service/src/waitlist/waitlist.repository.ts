import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { newId, type WaitlistType } from '#libs/contracts';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { EndedState, Line, StoredEntry, WaitlistEntry } from './waitlist.js';

const ENTRIES = `"${SIGNUPS_SCHEMA}"."waitlist_entries"`;
const PARTICIPANTS = `"${SIGNUPS_SCHEMA}"."participants"`;
const ACTIVE = `('waiting', 'offered')`;
const COLUMNS =
  'e.id, e.signup_id, e.participant_id, e.kind, e.target_id, e.quantity, e.state, e.created_at, e.offered_at, e.offer_expires_at';

/** The position of a waiting entry `e` in its line (1: next), null once offered. */
export const POSITION_SQL = `CASE WHEN e.state = 'waiting' THEN (
  SELECT count(*)::integer FROM ${ENTRIES} o
  WHERE o.signup_id = e.signup_id AND o.kind = e.kind AND o.target_id = e.target_id AND o.state = 'waiting' AND o.seq <= e.seq) END`;

/** A participant's active entries as a JSON array, in the order they joined; `alias` names the participant row. */
export const ENTRIES_OF = (alias: string) => `COALESCE((
  SELECT json_agg(json_build_object('id', e.id, 'signup_id', e.signup_id, 'participant_id', e.participant_id, 'kind', e.kind,
    'target_id', e.target_id, 'quantity', e.quantity, 'state', e.state, 'position', ${POSITION_SQL}, 'created_at', e.created_at,
    'offered_at', e.offered_at, 'offer_expires_at', e.offer_expires_at) ORDER BY e.seq)
  FROM ${ENTRIES} e WHERE e.participant_id = ${alias}.id AND e.state IN ${ACTIVE}), '[]'::json)`;

/** An entry row, as a query or JSON (timestamps as text) carries it. */
export interface EntryRow {
  id: string;
  signup_id: string;
  participant_id: string;
  kind: WaitlistType;
  target_id: string;
  quantity: number;
  state: StoredEntry['state'];
  position?: number | null;
  created_at: Date | string;
  offered_at: Date | string | null;
  offer_expires_at: Date | string | null;
}

function date(value: Date | string): Date;
function date(value: Date | string | null): Date | null;
function date(value: Date | string | null): Date | null {
  return value === null ? null : new Date(value);
}

export function storedEntryFromRow(row: EntryRow): StoredEntry {
  return {
    id: row.id,
    signupId: row.signup_id,
    participantId: row.participant_id,
    kind: row.kind,
    targetId: row.target_id,
    quantity: row.quantity,
    state: row.state,
    joinedAt: date(row.created_at),
    offeredAt: date(row.offered_at),
    offerExpiresAt: date(row.offer_expires_at),
  };
}

export function entryFromRow(row: EntryRow): WaitlistEntry {
  return { ...(storedEntryFromRow(row) as WaitlistEntry), position: row.position ?? null };
}

/** An entry of the organizer's waitlist: with who holds it. */
export type WaitlistedEntry = WaitlistEntry & { name: string; email: string };

/**
 * Waitlist entries. Every write runs in the caller's transaction, which holds its signup's row
 * (SignupsRepository.lock 'update', or a registration's count), so the lines of a signup change
 * one transaction at a time.
 */
@Injectable()
export class WaitlistRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Puts a participant at the end of each line, in the order given; the entries with their positions. */
  async join(db: EntityManager, signupId: string, participantId: string, lines: (Line & { quantity: number })[]): Promise<WaitlistEntry[]> {
    if (lines.length === 0) return [];
    const entries: WaitlistEntry[] = [];
    // One statement per line, in order: each entry's seq (and so its position) follows the one before.
    for (const line of lines) {
      const [row] = await rowsOf<EntryRow>(
        db,
        `WITH e AS (
           INSERT INTO ${ENTRIES} (id, signup_id, participant_id, kind, target_id, quantity)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING *
         )
         SELECT ${COLUMNS}, 1 + (SELECT count(*)::integer FROM ${ENTRIES} o
           WHERE o.signup_id = e.signup_id AND o.kind = e.kind AND o.target_id = e.target_id AND o.state = 'waiting') AS position
         FROM e`,
        [newId(), signupId, participantId, line.kind, line.targetId, line.quantity],
      );
      entries.push(entryFromRow(row!));
    }
    return entries;
  }

  /**
   * The first waiting entry of the line that fits in `free` places and whose participant is
   * admitted to the signup (not in, nor offered a place in, the signup's own line), locked.
   */
  async nextInLine(db: EntityManager, signupId: string, line: Line, free: number): Promise<StoredEntry | undefined> {
    const [row] = await rowsOf<EntryRow>(
      db,
      `SELECT ${COLUMNS} FROM ${ENTRIES} e
       WHERE e.signup_id = $1 AND e.kind = $2 AND e.target_id = $3 AND e.state = 'waiting' AND e.quantity <= $4
         AND (e.kind = 'signup' OR NOT EXISTS (
           SELECT 1 FROM ${ENTRIES} s WHERE s.participant_id = e.participant_id AND s.kind = 'signup' AND s.state IN ${ACTIVE}))
       ORDER BY e.seq LIMIT 1
       FOR UPDATE OF e`,
      [signupId, line.kind, line.targetId, Number.isFinite(free) ? free : 2_147_483_647],
    );
    return row && storedEntryFromRow(row);
  }

  /** An entry of the participant, in any state, locked; pastDue: an offer whose time ran out, by the database's clock. */
  async lockOf(db: EntityManager, participantId: string, id: string): Promise<(StoredEntry & { pastDue: boolean }) | undefined> {
    const [row] = await rowsOf<EntryRow & { past_due: boolean }>(
      db,
      `SELECT ${COLUMNS}, (e.state = 'offered' AND e.offer_expires_at <= now()) AS past_due
       FROM ${ENTRIES} e WHERE e.id = $1 AND e.participant_id = $2 FOR UPDATE`,
      [id, participantId],
    );
    return row && { ...storedEntryFromRow(row), pastDue: row.past_due };
  }

  /** An entry of a signup (waiting or offered), locked. */
  async lockActive(db: EntityManager, signupId: string, id: string): Promise<StoredEntry | undefined> {
    const [row] = await rowsOf<EntryRow>(
      db,
      `SELECT ${COLUMNS} FROM ${ENTRIES} e WHERE e.id = $1 AND e.signup_id = $2 AND e.state IN ${ACTIVE} FOR UPDATE`,
      [id, signupId],
    );
    return row && storedEntryFromRow(row);
  }

  /** A participant's entries that are waiting or offered, locked, in the order they joined. */
  async lockActiveOf(db: EntityManager, participantId: string): Promise<StoredEntry[]> {
    const rows = await rowsOf<EntryRow>(
      db,
      `SELECT ${COLUMNS} FROM ${ENTRIES} e WHERE e.participant_id = $1 AND e.state IN ${ACTIVE} ORDER BY e.seq FOR UPDATE`,
      [participantId],
    );
    return rows.map(storedEntryFromRow);
  }

  /** Holds the entry's place for `minutes`. */
  async offer(db: EntityManager, id: string, minutes: number): Promise<void> {
    await rowsOf(
      db,
      `UPDATE ${ENTRIES} SET state = 'offered', offered_at = now(), offer_expires_at = now() + make_interval(mins => $2) WHERE id = $1`,
      [id, minutes],
    );
  }

  async end(db: EntityManager, id: string, state: EndedState): Promise<void> {
    await rowsOf(db, `UPDATE ${ENTRIES} SET state = $2, ended_at = now() WHERE id = $1`, [id, state]);
  }

  /** The signups that have offers past their time, at most `limit`. */
  async signupsWithExpiredOffers(limit: number): Promise<string[]> {
    const rows = await rowsOf<{ signup_id: string }>(
      this.dataSource.manager,
      `SELECT DISTINCT signup_id FROM ${ENTRIES} WHERE state = 'offered' AND offer_expires_at <= now() LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.signup_id);
  }

  /** A signup's offers past their time, claimed (locked, skipping those another transaction holds). */
  async claimExpiredOffers(db: EntityManager, signupId: string): Promise<StoredEntry[]> {
    const rows = await rowsOf<EntryRow>(
      db,
      `SELECT ${COLUMNS} FROM ${ENTRIES} e
       WHERE e.signup_id = $1 AND e.state = 'offered' AND e.offer_expires_at <= now()
       ORDER BY e.seq FOR UPDATE SKIP LOCKED`,
      [signupId],
    );
    return rows.map(storedEntryFromRow);
  }

  /** How many are in a line (waiting or offered). */
  async lineLength(signupId: string, line: Line): Promise<number> {
    const [row] = await rowsOf<{ n: number }>(
      this.dataSource.manager,
      `SELECT count(*)::integer AS n FROM ${ENTRIES} WHERE signup_id = $1 AND kind = $2 AND target_id = $3 AND state IN ${ACTIVE}`,
      [signupId, line.kind, line.targetId],
    );
    return row!.n;
  }

  /** One page of a signup's active entries in the order they joined (after the entry afterId), with positions and who holds each. */
  async list(
    signupId: string,
    filter: { kind?: WaitlistType; targetId?: string },
    afterId: string | undefined,
    limit: number,
  ): Promise<WaitlistedEntry[]> {
    const params: unknown[] = [signupId];
    let where = `e.signup_id = $1 AND e.state IN ${ACTIVE}`;
    if (filter.kind) {
      params.push(filter.kind);
      where += ` AND e.kind = $${params.length}`;
    }
    if (filter.targetId) {
      params.push(filter.targetId);
      where += ` AND e.target_id = $${params.length}::uuid`;
    }
    if (afterId) {
      params.push(afterId);
      where += ` AND e.seq > (SELECT c.seq FROM ${ENTRIES} c WHERE c.id = $${params.length}::uuid AND c.signup_id = $1)`;
    }
    params.push(limit);
    const rows = await rowsOf<EntryRow & { name: string; email: string }>(
      this.dataSource.manager,
      `SELECT ${COLUMNS}, ${POSITION_SQL} AS position, p.name, p.email
       FROM ${ENTRIES} e JOIN ${PARTICIPANTS} p ON p.id = e.participant_id
       WHERE ${where} ORDER BY e.seq LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => ({ ...entryFromRow(row), name: row.name, email: row.email }));
  }
}
