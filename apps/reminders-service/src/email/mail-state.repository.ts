import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { REMINDERS_SCHEMA } from '../schema.js';

const MAIL_STATE = `"${REMINDERS_SCHEMA}"."mail_state"`;
const DAILY_EMAIL = `"${REMINDERS_SCHEMA}"."daily_email"`;

/** What a participant was last told: the fingerprint of that message and how recent its context was; none before its first message. */
export interface Told {
  fingerprint: string;
  asOf: Date | null;
}

/** What each participant was last told by email, and each organization's emails of the day. */
@Injectable()
export class MailStateRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * Locks the participant's row for the transaction (made if new, with its signup) and answers
   * what the last message it was sent told: a second event about the same participant waits
   * here, then sees what the first one sent.
   */
  async lock(db: EntityManager, participantId: string, signupId: string): Promise<Told | undefined> {
    await rowsOf(
      db,
      `INSERT INTO ${MAIL_STATE} AS m (participant_id, signup_id) VALUES ($1, $2)
       ON CONFLICT (participant_id) DO UPDATE SET signup_id = EXCLUDED.signup_id WHERE m.signup_id IS NULL`,
      [participantId, signupId],
    );
    const [row] = await rowsOf<{ fingerprint: string | null; asOf: Date | null }>(
      db,
      `SELECT fingerprint, told_as_of AS "asOf" FROM ${MAIL_STATE} WHERE participant_id = $1 FOR UPDATE`,
      [participantId],
    );
    return row?.fingerprint ? { fingerprint: row.fingerprint, asOf: row.asOf } : undefined;
  }

  /** The participants of a signup that were sent a message (they have a fingerprint), by id; read outside any transaction. */
  async mailedOf(signupId: string): Promise<string[]> {
    const rows = await rowsOf<{ participant_id: string }>(
      this.dataSource,
      `SELECT participant_id FROM ${MAIL_STATE} WHERE signup_id = $1 AND fingerprint IS NOT NULL ORDER BY participant_id`,
      [signupId],
    );
    return rows.map((row) => row.participant_id);
  }

  /**
   * Locks the rows of these participants, one after the other in the order of their ids (every
   * transaction that locks several takes them in that order, so two never wait for each other),
   * and answers what the last message each was sent told.
   */
  async lockMailed(db: EntityManager, participantIds: readonly string[]): Promise<Map<string, Told>> {
    const rows = await rowsOf<{ participant_id: string; fingerprint: string; asOf: Date | null }>(
      db,
      `SELECT participant_id, fingerprint, told_as_of AS "asOf" FROM ${MAIL_STATE}
       WHERE participant_id = ANY($1::uuid[]) AND fingerprint IS NOT NULL ORDER BY participant_id FOR UPDATE`,
      [participantIds],
    );
    return new Map(rows.map((row) => [row.participant_id, { fingerprint: row.fingerprint, asOf: row.asOf }]));
  }

  /** Counts one email against the organization's ceiling of the day; false (nothing counted) once the ceiling is reached. */
  async countEmail(db: EntityManager, organizationId: string, day: string, ceiling: number): Promise<boolean> {
    const rows = await rowsOf(
      db,
      `INSERT INTO ${DAILY_EMAIL} AS d (organization_id, day, sent) SELECT $1, $2, 1 WHERE $3 > 0
       ON CONFLICT (organization_id, day) DO UPDATE SET sent = d.sent + 1 WHERE d.sent < $3
       RETURNING sent`,
      [organizationId, day, ceiling],
    );
    return rows.length === 1;
  }

  async remember(db: EntityManager, participantId: string, told: Told): Promise<void> {
    await rowsOf(db, `UPDATE ${MAIL_STATE} SET fingerprint = $2, told_as_of = $3, mailed_at = now() WHERE participant_id = $1`, [
      participantId,
      told.fingerprint,
      told.asOf,
    ]);
  }
}
