import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7, validate as uuidValidate } from 'uuid';
import { ProblemError } from '#libs/problem';

/** Ids of resources addressed by path (signups, slots, participants, endpoints, events). */
export function newId(): string {
  return uuidv7();
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** n random base62 characters (uniform: rejection sampling). */
export function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const byte of randomBytes(n * 2)) {
      if (byte < 248 && out.length < n) out += BASE62[byte % 62];
    }
  }
  return out;
}

export type IdPrefix = 'usr' | 'org' | 'cli' | 'ac' | 'oat' | 'ort' | 'dc' | 'cnf' | 'key' | 'msg';

/** Principal and credential ids: `org_` followed by 24 base62 characters. */
export function newPrefixedId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(24)}`;
}

/** Whether a value could be an id of ours or oidc-provider's (base62, `_` and `-`): anything else names nothing. */
export function isPlainId(value: string): boolean {
  return /^[\w-]{1,128}$/.test(value);
}

/** How a secret with 256 random bits (a token, a key, a session) is kept and looked up: its SHA-256, hex. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * Whether a presented secret (a token, a hash, a signature) equals the expected one, in a time that
 * depends on neither: both are hashed to the same length first, so not even the length leaks.
 */
export function constantTimeEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(presented, 'utf8').digest(), createHash('sha256').update(expected, 'utf8').digest());
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidValidate(value);
}

/** A path id that must be a uuid: 422 with the parameter's name as path otherwise. */
export function requireUuid(value: unknown, name = 'id'): string {
  if (!isUuid(value)) throw ProblemError.validation([{ path: name, message: 'Invalid uuid' }]);
  return value.toLowerCase();
}
