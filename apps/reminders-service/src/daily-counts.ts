import type { EntityManager } from 'typeorm';
import { type Db, rowsOf } from '#libs/persistence';
import { REMINDERS_SCHEMA } from './schema.js';

/** Each organization's count of one kind of message per UTC day (a row per organization and day), against its tier's ceiling. */
export class DailyCounts {
  private readonly table: string;

  constructor(table: 'daily_sms' | 'daily_email') {
    this.table = `"${REMINDERS_SCHEMA}"."${table}"`;
  }

  /** Locks the organization's count of the day for `db`'s transaction (so its passes take turns) and answers it. */
  async lock(db: EntityManager, organizationId: string, day: string): Promise<number> {
    await rowsOf(db, `INSERT INTO ${this.table} (organization_id, day) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [organizationId, day]);
    const [row] = await rowsOf<{ sent: number }>(db, `SELECT sent FROM ${this.table} WHERE organization_id = $1 AND day = $2 FOR UPDATE`, [
      organizationId,
      day,
    ]);
    return row!.sent;
  }

  /** The organization's count of the day as it stands (0 before its first message), without a lock. */
  async read(db: Db, organizationId: string, day: string): Promise<number> {
    const [row] = await rowsOf<{ sent: number }>(db, `SELECT sent FROM ${this.table} WHERE organization_id = $1 AND day = $2`, [
      organizationId,
      day,
    ]);
    return row?.sent ?? 0;
  }

  /** Moves the day's count by `delta` (never below 0). */
  async add(db: EntityManager, organizationId: string, day: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await rowsOf(db, `UPDATE ${this.table} SET sent = GREATEST(0, sent + $3) WHERE organization_id = $1 AND day = $2`, [
      organizationId,
      day,
      delta,
    ]);
  }
}

/** Texts per organization and day (smsPerDay). */
export const DAILY_SMS = new DailyCounts('daily_sms');
/** Emails to participants of live signups per organization and day (emailsPerDay). */
export const DAILY_EMAIL = new DailyCounts('daily_email');
