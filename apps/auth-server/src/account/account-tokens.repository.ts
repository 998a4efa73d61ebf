import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { sha256Hex } from '#libs/contracts';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { AUTH_SCHEMA } from '../database.js';

const TOKENS = `"${AUTH_SCHEMA}"."account_tokens"`;

/** What a link of an account email does: verify the address, or reset the password. */
export type AccountTokenPurpose = 'verify_email' | 'reset_password';

/** A link's token as it travels: 32 random bytes, base64url. Anything else names no token and is never looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function isAccountToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

/**
 * The tokens of the links account emails carry: 256 random bits, kept only as their SHA-256 with
 * the user, the purpose and the expiry. A token is used once (its row is deleted), and a new one
 * of a purpose replaces the user's earlier ones, so only the newest link works.
 */
@Injectable()
export class AccountTokensRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  /** A new token for the user, in `db`'s transaction, replacing their earlier ones of the purpose: the token and its expiry. */
  async issue(
    db: EntityManager,
    userId: string,
    purpose: AccountTokenPurpose,
    lifetimeSeconds: number,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    await this.deleteOf(db, userId, purpose);
    const [row] = await rowsOf<{ expires_at: Date }>(
      db,
      `INSERT INTO ${TOKENS} (id, user_id, purpose, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING expires_at`,
      [sha256Hex(token), userId, purpose, lifetimeSeconds],
    );
    return { token, expiresAt: row!.expires_at };
  }

  /** The user of a token of this purpose that has not expired, without using it up. */
  async userOf(token: string, purpose: AccountTokenPurpose): Promise<string | undefined> {
    if (!isAccountToken(token)) return undefined;
    const [row] = await rowsOf<{ user_id: string }>(
      this.dataSource,
      `SELECT user_id FROM ${TOKENS} WHERE id = $1 AND purpose = $2 AND expires_at > now()`,
      [sha256Hex(token), purpose],
    );
    return row?.user_id;
  }

  /** Uses a token up in `db`'s transaction: its user, once; undefined for one unknown, used, replaced, expired or of another purpose. */
  async consume(db: EntityManager, token: string, purpose: AccountTokenPurpose): Promise<string | undefined> {
    if (!isAccountToken(token)) return undefined;
    const [row] = await rowsOf<{ user_id: string }>(
      db,
      `DELETE FROM ${TOKENS} WHERE id = $1 AND purpose = $2 AND expires_at > now() RETURNING user_id`,
      [sha256Hex(token), purpose],
    );
    return row?.user_id;
  }

  /** Forgets every token of the user for a purpose (the purpose is done, or a newer token replaces them). */
  async deleteOf(db: EntityManager, userId: string, purpose: AccountTokenPurpose): Promise<void> {
    await rowsOf(db, `DELETE FROM ${TOKENS} WHERE user_id = $1 AND purpose = $2`, [userId, purpose]);
  }
}
