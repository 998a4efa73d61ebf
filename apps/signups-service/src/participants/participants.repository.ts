import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { ParticipantStatus } from '#libs/contracts';
import { prepared, rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { Target } from '../signups/slot-item.js';
import { contentsFromJson, TABLES, takeSql } from '../signups/slots-items.sql.js';
import { ENTRIES_OF, entryFromRow, type EntryRow } from '../waitlist/waitlist.repository.js';
import type { Answers } from './answers.js';
import { type NewParticipant, type Participant, type ParticipantFieldChanges, type Selection, SETTLED_STATUSES } from './participant.js';
import { keyOf, lockOrder } from './selections.js';

const PARTICIPANTS = `"${SIGNUPS_SCHEMA}"."participants"`;
const SELECTIONS = `"${SIGNUPS_SCHEMA}"."selections"`;
const ENTRIES = `"${SIGNUPS_SCHEMA}"."waitlist_entries"`;
const COLUMNS = `id, signup_id, name, email, phone, answers, token_hash, created_at, updated_at, reminded_at, status, status_changed_at,
  cancelled_at, checked_in_at, no_show_at, hours_served`;

/** A participant's selections as a JSON array, slots first, each kind by id (lockOrder), and its lines (ENTRIES_OF). */
const HOLDINGS_OF = (alias: string) => `COALESCE((
  SELECT json_agg(json_build_object('type', s.kind, 'id', s.target_id, 'quantity', s.quantity) ORDER BY s.kind DESC, s.target_id)
  FROM ${SELECTIONS} s WHERE s.participant_id = ${alias}.id), '[]'::json) AS selections, ${ENTRIES_OF(alias)} AS waitlist`;

/**
 * The SQL of a registration in one statement (ParticipantsRepository.register). With `waitlist`,
 * the participant is also stored when a selection it asked for could ever fit (it joins that
 * line): a statement of its own, so the registrations of signups without a waitlist, the hottest
 * write, keep the plan they had.
 */
function registerSql(waitlist: boolean): string {
  const orWaits = waitlist
    ? `OR EXISTS (
         SELECT 1 FROM w WHERE (w.kind = 'slot' AND EXISTS (
             SELECT 1 FROM ${TABLES.slot.table} t WHERE t.id = w.target_id AND t.signup_id = $1 AND w.quantity <= t.capacity))
           OR (w.kind = 'item' AND EXISTS (
             SELECT 1 FROM ${TABLES.item.table} t WHERE t.id = w.target_id AND t.signup_id = $1 AND w.quantity <= t.quantity_needed)))`
    : '';
  return `WITH w AS (SELECT * FROM unnest($7::text[], $8::uuid[], $9::integer[]) AS w(kind, target_id, quantity)),
   ts AS (${takeSql('slot', 'w', '$1::uuid')}),
   ti AS (${takeSql('item', 'w', '$1::uuid')}),
   p AS (
     INSERT INTO ${PARTICIPANTS} (id, signup_id, name, email, phone, token_hash, answers, token_sealed)
     SELECT $2, $1, $3, $4, $5, $6, $10::jsonb, $11
     WHERE cardinality($8::uuid[]) = 0 OR EXISTS (SELECT 1 FROM ts) OR EXISTS (SELECT 1 FROM ti) ${orWaits}
     RETURNING ${COLUMNS}
   ), ps AS (
     INSERT INTO ${SELECTIONS} (participant_id, kind, target_id, quantity)
     SELECT p.id, w.kind, w.target_id, w.quantity FROM p, w
     WHERE (w.kind, w.target_id) IN (SELECT 'slot', id FROM ts UNION ALL SELECT 'item', id FROM ti)
   )
   SELECT (SELECT json_agg(ts) FROM ts) AS slots, (SELECT json_agg(ti) FROM ti) AS items, (SELECT row_to_json(p) FROM p) AS participant`;
}

/** Participants by id, with their sealed tokens, for their emails (one statement per batch of contexts). */
const FIND_FOR_MESSAGES = prepared(
  `SELECT ${COLUMNS}, token_sealed, ${HOLDINGS_OF('p')} FROM ${PARTICIPANTS} p WHERE id = ANY($1::uuid[]) ORDER BY id`,
);

/** The registration statements, prepared: they are the hottest write. */
const REGISTER = { plain: prepared(registerSql(false)), orWaits: prepared(registerSql(true)) };

interface ParticipantRow {
  id: string;
  signup_id: string;
  name: string;
  email: string;
  phone: string | null;
  answers: Answers;
  token_hash: string;
  created_at: Date;
  updated_at: Date;
  reminded_at: Date | null;
  status: ParticipantStatus;
  status_changed_at: Date;
  cancelled_at: Date | null;
  checked_in_at: Date | null;
  no_show_at: Date | null;
  /** numeric: text from the driver, a number from JSON. */
  hours_served: string | number | null;
  selections?: Selection[];
  waitlist?: EntryRow[];
}

/** A participant with the hash of its confirmation token (never leaves the service). */
export type StoredParticipant = Participant & { tokenHash: string };

/** A participant with its confirmation token sealed: null when it registered before tokens were kept sealed. */
export type SealedParticipant = StoredParticipant & { sealedToken: string | null };

/** A participant's selections and lines, read after its row was locked (a locking read's own subqueries see the snapshot from before the wait). */
interface Holdings {
  selections: Selection[];
  waitlist: EntryRow[];
}

function fromRow(row: ParticipantRow, holdings: Partial<Holdings> = {}): StoredParticipant {
  const { selections = row.selections ?? [], waitlist = row.waitlist ?? [] } = holdings;
  return {
    id: row.id,
    signupId: row.signup_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    selections,
    answers: row.answers,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    remindedAt: row.reminded_at,
    status: row.status,
    statusChangedAt: row.status_changed_at,
    cancelledAt: row.cancelled_at,
    checkedInAt: row.checked_in_at,
    noShowAt: row.no_show_at,
    hoursServed: row.hours_served === null ? null : Number(row.hours_served),
    waitlist: waitlist.map(entryFromRow),
    tokenHash: row.token_hash,
  };
}

/** A participant row as JSON carries it: timestamps as text. */
type JsonRow<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

function revived(row: JsonRow<ParticipantRow>): ParticipantRow {
  const date = (value: string | null) => (value === null ? null : new Date(value));
  return {
    ...row,
    created_at: date(row.created_at)!,
    updated_at: date(row.updated_at)!,
    reminded_at: date(row.reminded_at),
    status_changed_at: date(row.status_changed_at)!,
    cancelled_at: date(row.cancelled_at),
    checked_in_at: date(row.checked_in_at),
    no_show_at: date(row.no_show_at),
  };
}

/** What a registration's statement did (register): the slots and items it took, and the participant when stored. */
export interface Registered {
  taken: Target[];
  participant?: StoredParticipant;
}

/** The sort key of participant lists: newest first, then id. */
export interface ParticipantPosition {
  createdAt: Date;
  id: string;
}

/** Where an export stands: the last participant read, its registration time as stored, to the microsecond (ISO text: a Date keeps milliseconds only). */
export interface ExportPosition {
  createdAt: string;
  id: string;
}

/** A participant of an export's page, and its position (the next page starts after it). */
export interface ExportRow {
  participant: StoredParticipant;
  position: ExportPosition;
}

const FIELD_COLUMNS: Readonly<Record<keyof ParticipantFieldChanges, string>> = {
  name: 'name',
  email: 'email',
  phone: 'phone',
  answers: 'answers',
};

/**
 * Participants and their selections. Writes run in the caller's transaction; a participant is
 * locked (lock, after its signup row) before its selections are read, so two edits of one
 * registration apply one after the other, each on the other's result.
 */
@Injectable()
export class ParticipantsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * Stores a registration in one statement, in a transaction that has counted it on its signup
   * (SignupsRepository.countParticipants, which locks the signup row: every other write of the
   * signup's slots and items holds a lock that conflicts with it, so this statement, whose
   * snapshot is taken after that lock, sees them as they are until the commit):
   * 1. takes each selection that has room enough in the signup (takeSql);
   * 2. stores the participant with the selections taken, unless selections were asked and none
   *    was taken (with `waitlist`: nor could any ever fit, no more than its limit, to wait in line).
   */
  async register(db: EntityManager, participant: NewParticipant, selections: Selection[], waitlist = false): Promise<Registered> {
    const [row] = await rowsOf<{
      slots: Record<string, unknown>[] | null;
      items: Record<string, unknown>[] | null;
      participant: JsonRow<ParticipantRow> | null;
    }>(db, waitlist ? REGISTER.orWaits : REGISTER.plain, [
      participant.signupId,
      participant.id,
      participant.name,
      participant.email,
      participant.phone,
      participant.tokenHash,
      selections.map((s) => s.type),
      selections.map((s) => s.id),
      selections.map((s) => s.quantity),
      participant.answers,
      participant.sealedToken,
    ]);
    const taken = contentsFromJson(row!.slots ?? [], row!.items ?? []);
    const takenKeys = new Set([...taken.slots, ...taken.items].map((t) => keyOf({ type: t.kind, id: t.id })));
    const confirmed = selections.filter((s) => takenKeys.has(keyOf(s))).sort(lockOrder);
    return {
      taken: [...taken.slots, ...taken.items],
      ...(row!.participant && { participant: fromRow(revived(row!.participant), { selections: confirmed }) }),
    };
  }

  /** Locks a participant of the signup for the rest of the transaction and reads it with its selections. */
  async lock(db: EntityManager, id: string, signupId: string): Promise<StoredParticipant | undefined> {
    const [row] = await rowsOf<ParticipantRow>(db, `SELECT ${COLUMNS} FROM ${PARTICIPANTS} WHERE id = $1 AND signup_id = $2 FOR UPDATE`, [
      id,
      signupId,
    ]);
    return row && fromRow(row, await this.holdingsOf(db, row.id));
  }

  /** A participant as the transaction sees it now. */
  async read(db: EntityManager, id: string): Promise<StoredParticipant> {
    const [row] = await rowsOf<ParticipantRow>(db, `SELECT ${COLUMNS}, ${HOLDINGS_OF('p')} FROM ${PARTICIPANTS} p WHERE id = $1`, [id]);
    return fromRow(row!);
  }

  /** Stores a registration that waits in the signup's own line: it holds nothing. */
  async insertWaiting(db: EntityManager, participant: NewParticipant): Promise<StoredParticipant> {
    const [row] = await rowsOf<ParticipantRow>(
      db,
      `INSERT INTO ${PARTICIPANTS} (id, signup_id, name, email, phone, token_hash, answers, token_sealed, status)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, 'waitlisted')
       RETURNING ${COLUMNS}`,
      [
        participant.id,
        participant.signupId,
        participant.name,
        participant.email,
        participant.phone,
        participant.tokenHash,
        participant.answers,
        participant.sealedToken,
      ],
    );
    return fromRow(row!);
  }

  /**
   * Sets the status a participant's holdings give it, unless it is settled (cancelled, attended,
   * no_show): waitlisted or offered while in the signup's own line; else confirmed when it holds a
   * slot or item; else offered, waitlisted by its lines; else (it asked for nothing) confirmed.
   */
  async refreshStatus(db: EntityManager, id: string): Promise<void> {
    await rowsOf(
      db,
      `WITH next AS (
         SELECT CASE
           WHEN EXISTS (SELECT 1 FROM ${ENTRIES} e WHERE e.participant_id = $1 AND e.kind = 'signup' AND e.state = 'offered') THEN 'offered'
           WHEN EXISTS (SELECT 1 FROM ${ENTRIES} e WHERE e.participant_id = $1 AND e.kind = 'signup' AND e.state = 'waiting') THEN 'waitlisted'
           WHEN EXISTS (SELECT 1 FROM ${SELECTIONS} s WHERE s.participant_id = $1) THEN 'confirmed'
           WHEN EXISTS (SELECT 1 FROM ${ENTRIES} e WHERE e.participant_id = $1 AND e.state = 'offered') THEN 'offered'
           WHEN EXISTS (SELECT 1 FROM ${ENTRIES} e WHERE e.participant_id = $1 AND e.state = 'waiting') THEN 'waitlisted'
           ELSE 'confirmed' END AS status
       )
       UPDATE ${PARTICIPANTS} p SET status = next.status, status_changed_at = now(), updated_at = now()
       FROM next WHERE p.id = $1 AND p.status <> next.status AND NOT (p.status = ANY($2::text[]))`,
      [id, SETTLED_STATUSES],
    );
  }

  /**
   * Cancels a participant: the row stays with status cancelled, and its selections as the record
   * of what it held (the caller gave their places back: a cancelled participant holds none).
   */
  async cancel(db: EntityManager, id: string): Promise<void> {
    await rowsOf(
      db,
      `UPDATE ${PARTICIPANTS} SET status = 'cancelled', status_changed_at = now(), cancelled_at = now(), updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  /** Adds places or units of a slot or item to what a participant holds (a promotion; the count was taken by the caller). */
  async addSelection(db: EntityManager, id: string, selection: Selection): Promise<void> {
    await rowsOf(
      db,
      `INSERT INTO ${SELECTIONS} AS s (participant_id, kind, target_id, quantity) VALUES ($1, $2, $3, $4)
       ON CONFLICT (participant_id, kind, target_id) DO UPDATE SET quantity = s.quantity + EXCLUDED.quantity`,
      [id, selection.type, selection.id, selection.quantity],
    );
    await rowsOf(db, `UPDATE ${PARTICIPANTS} SET updated_at = now() WHERE id = $1`, [id]);
  }

  /** A participant by id with its selections and lines; undefined when there is none. */
  async findById(id: string): Promise<StoredParticipant | undefined> {
    const [row] = await rowsOf<ParticipantRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS}, ${HOLDINGS_OF('p')} FROM ${PARTICIPANTS} p WHERE id = $1`,
      [id],
    );
    return row && fromRow(row);
  }

  async findByTokenHash(tokenHash: string): Promise<StoredParticipant | undefined> {
    const [row] = await rowsOf<ParticipantRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS}, ${HOLDINGS_OF('p')} FROM ${PARTICIPANTS} p WHERE token_hash = $1`,
      [tokenHash],
    );
    return row && fromRow(row);
  }

  /** The participants of these ids that exist, each with its sealed token, by id. */
  async findForMessages(ids: string[]): Promise<SealedParticipant[]> {
    const rows = await rowsOf<ParticipantRow & { token_sealed: string | null }>(this.dataSource.manager, FIND_FOR_MESSAGES, [ids]);
    return rows.map((row) => ({ ...fromRow(row), sealedToken: row.token_sealed }));
  }

  /** Changes contact fields and answers (and updated_at, also when only the selections change). */
  async update(db: EntityManager, id: string, changes: ParticipantFieldChanges): Promise<StoredParticipant> {
    const params: unknown[] = [id];
    const assignments = (Object.keys(FIELD_COLUMNS) as (keyof ParticipantFieldChanges)[])
      .filter((field) => changes[field] !== undefined)
      .map((field) => {
        params.push(changes[field]);
        return `${FIELD_COLUMNS[field]} = $${params.length}`;
      });
    const [row] = await rowsOf<ParticipantRow>(
      db,
      `UPDATE ${PARTICIPANTS} SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`,
      params,
    );
    return fromRow(row!, await this.holdingsOf(db, id));
  }

  /** Replaces every selection of a participant (the allocation has been done). */
  async replaceSelections(db: EntityManager, id: string, selections: Selection[]): Promise<void> {
    // Two statements: sub-statements of one WITH run in no defined order, so a delete and an
    // insert of the same key there could collide.
    await rowsOf(db, `DELETE FROM ${SELECTIONS} WHERE participant_id = $1`, [id]);
    if (selections.length === 0) return;
    await rowsOf(
      db,
      `INSERT INTO ${SELECTIONS} (participant_id, kind, target_id, quantity)
       SELECT $1, x.kind, x.target_id, x.quantity FROM unnest($2::text[], $3::uuid[], $4::integer[]) AS x(kind, target_id, quantity)`,
      [id, selections.map((s) => s.type), selections.map((s) => s.id), selections.map((s) => s.quantity)],
    );
  }

  /** Records the first reminder a participant got (a later one keeps the first time); no-op when the participant is gone. */
  async markReminded(db: EntityManager, id: string, at: string): Promise<void> {
    await rowsOf(db, `UPDATE ${PARTICIPANTS} SET reminded_at = $2 WHERE id = $1 AND reminded_at IS NULL`, [id, at]);
  }

  /**
   * One page of a signup's participants, newest first (keyset: stable under concurrent inserts),
   * in one status, or every status but cancelled.
   */
  async list(
    signupId: string,
    { status, updatedSince }: { status?: ParticipantStatus; updatedSince?: Date },
    after: ParticipantPosition | undefined,
    limit: number,
  ): Promise<StoredParticipant[]> {
    const params: unknown[] = [signupId];
    let where = 'signup_id = $1';
    if (status) {
      params.push(status);
      where += ` AND status = $${params.length}`;
    } else {
      where += ` AND status <> 'cancelled'`;
    }
    if (updatedSince) {
      params.push(updatedSince);
      where += ` AND updated_at >= $${params.length}::timestamptz`;
    }
    if (after) {
      params.push(after.createdAt, after.id);
      where += ` AND (created_at, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
    }
    params.push(limit);
    const rows = await rowsOf<ParticipantRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS}, ${HOLDINGS_OF('p')} FROM ${PARTICIPANTS} p WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => fromRow(row));
  }

  /**
   * One page of a signup's participants for an export: every status, oldest registration first
   * (keyset on created_at, id, after `after`), each with its selections and lines.
   */
  async listForExport(signupId: string, after: ExportPosition | undefined, limit: number): Promise<ExportRow[]> {
    // Two statements rather than `$2 IS NULL OR …`: under a generic plan an OR keeps the row
    // comparison out of the index condition, and every page would scan from the first participant.
    const [where, params] = after
      ? [`signup_id = $1 AND (created_at, id) > ($3::timestamptz, $4::uuid)`, [signupId, limit, after.createdAt, after.id]]
      : [`signup_id = $1`, [signupId, limit]];
    const rows = await rowsOf<ParticipantRow & { position: string }>(
      this.dataSource.manager,
      `SELECT ${COLUMNS}, ${HOLDINGS_OF('p')}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
       FROM ${PARTICIPANTS} p WHERE ${where} ORDER BY created_at, id LIMIT $2`,
      params,
    );
    return rows.map((row) => ({ participant: fromRow(row), position: { createdAt: row.position, id: row.id } }));
  }

  private async holdingsOf(db: EntityManager, participantId: string): Promise<Holdings> {
    const [row] = await rowsOf<Holdings>(db, `SELECT ${HOLDINGS_OF('p')} FROM ${PARTICIPANTS} p WHERE p.id = $1`, [participantId]);
    return row!;
  }
}
