import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { REMINDERS_SCHEMA } from '../schema.js';

const MAIL_STATE = `"${REMINDERS_SCHEMA}"."mail_state"`;

/** What each participant was last told by email (the fingerprint of that message). */
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

  async remember(db: EntityManager, participantId: string, fingerprint: string): Promise<void> {
    await rowsOf(db, `UPDATE ${MAIL_STATE} SET fingerprint = $2, mailed_at = now() WHERE participant_id = $1`, [
      participantId,
      fingerprint,
    ]);
  }
}
