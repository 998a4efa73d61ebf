import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DATA_SOURCE } from '#libs/runtime';
import { rowsOf } from '#libs/persistence';
import { SIGNUPS_SCHEMA } from '../schema.js';
import type { ContactChanges, NewParticipant, Participant, Selection } from './participant.js';
import { lockOrder } from './selections.js';

const PARTICIPANTS = `"${SIGNUPS_SCHEMA}"."participants"`;
const SELECTIONS = `"${SIGNUPS_SCHEMA}"."selections"`;
const COLUMNS = 'id, signup_id, name, email, phone, token_hash, created_at, updated_at, reminded_at';

/** A participant's selections as a JSON array, slots first, each kind by id (lockOrder). */
const SELECTIONS_OF = (alias: string) => `COALESCE((
  SELECT json_agg(json_build_object('type', s.kind, 'id', s.target_id, 'quantity', s.quantity) ORDER BY s.kind DESC, s.target_id)
  FROM ${SELECTIONS} s WHERE s.participant_id = ${alias}.id), '[]'::json) AS selections`;

interface ParticipantRow {
  id: string;
  signup_id: string;
  name: string;
  email: string;
  phone: string | null;
  token_hash: string;
  created_at: Date;
  updated_at: Date;
  reminded_at: Date | null;
  selections?: Selection[];
}

/** A participant with the hash of its confirmation token (never leaves the service). */
export type StoredParticipant = Participant & { tokenHash: string };

function fromRow(row: ParticipantRow, selections: Selection[] = row.selections ?? []): StoredParticipant {
  return {
    id: row.id,
    signupId: row.signup_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    selections,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    remindedAt: row.reminded_at,
    tokenHash: row.token_hash,
  };
}

/** The sort key of participant lists: newest first, then id. */
export interface ParticipantPosition {
  createdAt: Date;
  id: string;
}

const CONTACT_COLUMNS: Readonly<Record<keyof ContactChanges, string>> = { name: 'name', email: 'email', phone: 'phone' };

/**
 * Participants and their selections. Writes run in the caller's transaction; a participant is
 * locked (lock, after its signup row) before its selections are read, so two edits of one
 * registration apply one after the other, each on the other's result.
 */
@Injectable()
export class ParticipantsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** Stores a participant with its (already allocated) selections in one statement. */
  async insert(db: EntityManager, participant: NewParticipant, selections: Selection[]): Promise<StoredParticipant> {
    const [row] = await rowsOf<ParticipantRow>(
      db,
      `WITH p AS (
         INSERT INTO ${PARTICIPANTS} (id, signup_id, name, email, phone, token_hash) VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING ${COLUMNS}
       ), s AS (
         INSERT INTO ${SELECTIONS} (participant_id, kind, target_id, quantity)
         SELECT $1, x.kind, x.target_id, x.quantity FROM unnest($7::text[], $8::uuid[], $9::integer[]) AS x(kind, target_id, quantity)
       )
       SELECT ${COLUMNS} FROM p`,
      [
        participant.id, participant.signupId, participant.name, participant.email, participant.phone, participant.tokenHash,
        selections.map((s) => s.type), selections.map((s) => s.id), selections.map((s) => s.quantity),
      ],
    );
    return fromRow(row!, [...selections].sort(lockOrder));
  }

  /** Locks a participant of the signup for the rest of the transaction and reads it with its selections. */
  async lock(db: EntityManager, id: string, signupId: string): Promise<StoredParticipant | undefined> {
    const [row] = await rowsOf<ParticipantRow>(db, `SELECT ${COLUMNS} FROM ${PARTICIPANTS} WHERE id = $1 AND signup_id = $2 FOR UPDATE`, [id, signupId]);
    return row && fromRow(row, await this.selectionsOf(db, row.id));
  }

  async findByTokenHash(tokenHash: string): Promise<StoredParticipant | undefined> {
    const [row] = await rowsOf<ParticipantRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS}, ${SELECTIONS_OF('p')} FROM ${PARTICIPANTS} p WHERE token_hash = $1`,
      [tokenHash],
    );
    return row && fromRow(row);
  }

  /** Changes contact fields (and updated_at, also when only the selections change). */
  async update(db: EntityManager, id: string, changes: ContactChanges): Promise<StoredParticipant> {
    const params: unknown[] = [id];
    const assignments = (Object.keys(CONTACT_COLUMNS) as (keyof ContactChanges)[])
      .filter((field) => changes[field] !== undefined)
      .map((field) => {
        params.push(changes[field]);
        return `${CONTACT_COLUMNS[field]} = $${params.length}`;
      });
    const [row] = await rowsOf<ParticipantRow>(
      db,
      `UPDATE ${PARTICIPANTS} SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`,
      params,
    );
    return fromRow(row!, await this.selectionsOf(db, id));
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

  /** Deletes a locked participant; its selections go with it. */
  async delete(db: EntityManager, id: string): Promise<void> {
    await rowsOf(db, `DELETE FROM ${PARTICIPANTS} WHERE id = $1`, [id]);
  }

  /** One page of a signup's participants, newest first (keyset: stable under concurrent inserts). */
  async list(signupId: string, after: ParticipantPosition | undefined, limit: number): Promise<StoredParticipant[]> {
    const params: unknown[] = [signupId];
    let where = 'signup_id = $1';
    if (after) {
      params.push(after.createdAt, after.id);
      where += ` AND (created_at, id) < ($2::timestamptz, $3::uuid)`;
    }
    params.push(limit);
    const rows = await rowsOf<ParticipantRow>(
      this.dataSource.manager,
      `SELECT ${COLUMNS}, ${SELECTIONS_OF('p')} FROM ${PARTICIPANTS} p WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => fromRow(row));
  }

  private async selectionsOf(db: EntityManager, participantId: string): Promise<Selection[]> {
    const rows = await rowsOf<{ kind: Selection['type']; target_id: string; quantity: number }>(
      db,
      `SELECT kind, target_id, quantity FROM ${SELECTIONS} WHERE participant_id = $1 ORDER BY kind DESC, target_id`,
      [participantId],
    );
    return rows.map((r) => ({ type: r.kind, id: r.target_id, quantity: r.quantity }));
  }
}
