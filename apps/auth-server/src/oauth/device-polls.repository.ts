import type { EntityManager } from 'typeorm';
import { sha256Hex } from '#libs/contracts';
import { rowsOf } from '#libs/persistence';

const DEVICE_POLLS = '"auth"."oauth_device_polls"';

/**
 * The last poll of each device code at the token endpoint, kept under the SHA-256 of the code
 * (a bearer secret, never stored as it is) until the code itself expires.
 */
export class DevicePollsRepository {
  /** When the device code was polled last, if it was polled within its lifetime. */
  async lastPoll(db: EntityManager, deviceCode: string): Promise<Date | undefined> {
    const [row] = await rowsOf<{ polled_at: Date }>(
      db,
      `SELECT "polled_at" FROM ${DEVICE_POLLS} WHERE "device_code_hash" = $1 AND "expires_at" > now()`,
      [sha256Hex(deviceCode)],
    );
    return row?.polled_at;
  }

  async recordPoll(db: EntityManager, deviceCode: string, polledAt: Date, lifetimeSeconds: number): Promise<void> {
    await rowsOf(
      db,
      `INSERT INTO ${DEVICE_POLLS} ("device_code_hash", "polled_at", "expires_at") VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT ("device_code_hash") DO UPDATE SET "polled_at" = EXCLUDED."polled_at", "expires_at" = EXCLUDED."expires_at"`,
      [sha256Hex(deviceCode), polledAt, lifetimeSeconds],
    );
  }
}
