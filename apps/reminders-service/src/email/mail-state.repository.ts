import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { REMINDERS_SCHEMA } from '../schema.js';

const MAIL_STATE = `"${REMINDERS_SCHEMA}"."mail_state"`;
const DAILY_EMAIL = `"${REMINDERS_SCHEMA}"."daily_email"`;

/** What each participant was last told by email (the fingerprint of that message), and each organization's emails of the day. */
@Injectable()
export class MailStateRepository {
  /**
   * Locks the participant's row for the transaction (made if new) and answers the fingerprint of
   * the last message it was sent: a second event about the same participant waits here, then
   * sees what the first one sent.
   */
  async lock(db: EntityManager, participantId: string): Promise<string | undefined> {
    await rowsOf(db, `INSERT INTO ${MAIL_STATE} (participant_id) VALUES ($1) ON CONFLICT DO NOTHING`, [participantId]);
    const [row] = await rowsOf<{ fingerprint: string | null }>(
      db,
      `SELECT fingerprint FROM ${MAIL_STATE} WHERE participant_id = $1 FOR UPDATE`,
      [participantId],
    );
    return row?.fingerprint ?? undefined;
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

  async remember(db: EntityManager, participantId: string, fingerprint: string): Promise<void> {
    await rowsOf(db, `UPDATE ${MAIL_STATE} SET fingerprint = $2, mailed_at = now() WHERE participant_id = $1`, [
      participantId,
      fingerprint,
    ]);
  }
}
