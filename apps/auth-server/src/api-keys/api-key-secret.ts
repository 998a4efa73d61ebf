import { createHash } from 'node:crypto';
import { type KeyMode, randomBase62 } from '#libs/contracts';

const KEY_BODY_LENGTH = 32;
const DISPLAY_PREFIX_LENGTH = 12;
const KEY_HASH_PATTERN = /^[0-9a-f]{64}$/;

/** A new key: sgn_test_ or sgn_live_ followed by 32 random base62 characters. */
export function generateApiKey(mode: KeyMode): string {
  return `sgn_${mode}_${randomBase62(KEY_BODY_LENGTH)}`;
}

/** What is stored and looked up: SHA-256 of the whole key, hex (the edge computes the same). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A key hash as stored and as sent by the edge: 64 lowercase hex characters. */
export function isKeyHash(value: unknown): value is string {
  return typeof value === 'string' && KEY_HASH_PATTERN.test(value);
}

/** The first characters, shown in lists to recognise a key; never enough to use it. */
export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
