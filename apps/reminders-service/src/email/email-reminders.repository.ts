import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { REMINDERS_SCHEMA } from '../schema.js';

const CONTACTS = `"${REMINDERS_SCHEMA}"."contacts"`;
const REMINDED = `"${REMINDERS_SCHEMA}"."reminded_addresses"`;
const SUPPRESSIONS = `"${REMINDERS_SCHEMA}"."email_suppressions"`;

/** An address of a signup's participants, and why it may not be mailed, if it may not. */
export interface EmailCandidate {
  participantId: string;
  /** Lower-cased: one reminder per address. */
  address: string;
  suppression: 'bounced' | 'unsubscribed' | null;
}

/** Who an email pass may remind, and the claims that keep anyone from a second reminder of a signup. */
@Injectable()
export class EmailRemindersRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /**
   * The addresses of a signup's active, confirmed participants (one participant per address), each
   * with its suppression: bounced for everyone, or unsubscribed from this organization's reminders.
   */
  async candidates(signupId: string, organizationId: string): Promise<EmailCandidate[]> {
    return rowsOf<EmailCandidate>(
      this.dataSource,
      `SELECT DISTINCT ON (lower(c.email)) c.participant_id AS "participantId", lower(c.email) AS address,
         CASE WHEN EXISTS (SELECT 1 FROM ${SUPPRESSIONS} x WHERE x.address = lower(c.email) AND x.organization_id = '') THEN 'bounced'
              WHEN EXISTS (SELECT 1 FROM ${SUPPRESSIONS} x WHERE x.address = lower(c.email) AND x.organization_id = $2) THEN 'unsubscribed'
         END AS suppression
       FROM ${CONTACTS} c
       WHERE c.signup_id = $1 AND c.active AND c.status = 'confirmed' AND c.email IS NOT NULL
       ORDER BY lower(c.email), c.participant_id`,
      [signupId, organizationId],
    );
  }

  /** The keys (HMACs) of the addresses reminded of a signup by email. */
  async remindedKeys(signupId: string): Promise<Set<string>> {
    const rows = await rowsOf<{ key: string }>(this.dataSource, `SELECT address_key AS key FROM ${REMINDED} WHERE signup_id = $1`, [
      signupId,
    ]);
    return new Set(rows.map((row) => row.key));
  }

  /** Claims the reminder of an address (by its key) for a signup, in `db`'s transaction; false when another pass claimed it first. */
  async claim(db: EntityManager, signupId: string, addressKey: string, participantId: string): Promise<boolean> {
    const rows = await rowsOf(
      db,
      `INSERT INTO ${REMINDED} (signup_id, address_key, participant_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING address_key`,
      [signupId, addressKey, participantId],
    );
    return rows.length === 1;
  }
}
