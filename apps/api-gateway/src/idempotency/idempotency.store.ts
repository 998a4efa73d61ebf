import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { GATEWAY_SCHEMA } from '../database.js';

/** A stored answer: what a replay sends again. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Whose key it is (organization and mode, or client IP), the key, and the request it was first used for. */
export interface IdempotentRequest {
  scope: string;
  key: string;
  fingerprint: string;
}

/** This request holds the key: it executes, then completes or releases the claim. */
export interface Claim {
  id: string;
  claim: string;
  secret: Buffer;
}

export type Begin =
  | { outcome: 'execute'; claim: Claim }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'in_progress' }
  | { outcome: 'reuse' };

/** How long a key is remembered (contract: Limits, idempotency window). */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
/** A running claim older than this belongs to a request that died; the next retry takes it over. */
export const CLAIM_LEASE_SECONDS = 60;

const TABLE = `"${GATEWAY_SCHEMA}"."idempotency_keys"`;
const MAX_ATTEMPTS = 3;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Idempotency records in the gateway's schema, shared by every replica. A key is claimed by one
 * atomic upsert, so of concurrent requests with one key exactly one executes. Rows are found by
 * a hash of scope and key, and answers are encrypted (AES-256-GCM) with a key derived from the
 * Idempotency-Key: the table alone gives away neither the keys nor the answers (which can hold
 * confirmation tokens and secrets).
 */
export class IdempotencyStore {
  constructor(private readonly dataSource: DataSource) {}

  async begin(request: IdempotentRequest): Promise<Begin> {
    const id = createHash('sha256').update(`${request.scope}\n${request.key}`).digest('hex');
    const secret = Buffer.from(hkdfSync('sha256', request.key, request.scope, 'idempotent response', 32));
    for (let attempt = 1; ; attempt++) {
      const claim = randomUUID();
      const taken = await rowsOf<{ id: string }>(
        this.dataSource,
        `INSERT INTO ${TABLE} AS k (id, fingerprint, state, claim, locked_until, expires_at)
         VALUES ($1, $2, 'running', $3, now() + make_interval(secs => $4), now() + make_interval(secs => $5))
         ON CONFLICT (id) DO UPDATE
           SET fingerprint = EXCLUDED.fingerprint, state = 'running', claim = EXCLUDED.claim, locked_until = EXCLUDED.locked_until,
               status = NULL, response = NULL, created_at = now(), expires_at = EXCLUDED.expires_at
           WHERE k.expires_at <= now()
              OR (k.state = 'running' AND k.locked_until <= now() AND k.fingerprint = EXCLUDED.fingerprint)
         RETURNING id`,
        [id, request.fingerprint, claim, CLAIM_LEASE_SECONDS, IDEMPOTENCY_WINDOW_SECONDS],
      );
      if (taken.length > 0) return { outcome: 'execute', claim: { id, claim, secret } };
      const [row] = await rowsOf<{ fingerprint: string; state: string; status: number | null; response: Buffer | null }>(
        this.dataSource,
        `SELECT fingerprint, state, status, response FROM ${TABLE} WHERE id = $1 AND expires_at > now()`,
        [id],
      );
      // Released (a 5xx) or expired between the two statements: claim it afresh.
      if (!row && attempt < MAX_ATTEMPTS) continue;
      if (!row) throw new Error('The idempotency record kept changing under this request');
      if (row.fingerprint !== request.fingerprint) return { outcome: 'reuse' };
      if (row.state === 'running') return { outcome: 'in_progress' };
      return { outcome: 'replay', response: { status: row.status!, ...decrypt(row.response!, secret) } };
    }
  }

  /** Keeps the answer for replays until the key expires. */
  async complete(claim: Claim, response: StoredResponse): Promise<void> {
    await rowsOf(
      this.dataSource,
      `UPDATE ${TABLE} SET state = 'completed', status = $3, response = $4, locked_until = NULL WHERE id = $1 AND claim = $2`,
      [claim.id, claim.claim, response.status, encrypt({ headers: response.headers, body: response.body }, claim.secret)],
    );
  }

  /** Forgets the claim (a 5xx or a 429 answer): a retry with the key executes afresh. */
  async release(claim: Claim): Promise<void> {
    await rowsOf(this.dataSource, `DELETE FROM ${TABLE} WHERE id = $1 AND claim = $2`, [claim.id, claim.claim]);
  }
}

function encrypt(value: object, secret: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', secret, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function decrypt(sealed: Buffer, secret: Buffer): Omit<StoredResponse, 'status'> {
  const decipher = createDecipheriv('aes-256-gcm', secret, sealed.subarray(0, IV_BYTES));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  const plain = Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  return JSON.parse(plain.toString('utf8')) as Omit<StoredResponse, 'status'>;
}
