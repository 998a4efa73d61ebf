import { createHash } from 'node:crypto';
import { CONFIRMATION_TOKEN_PATTERN, randomBase62 } from '#libs/contracts';

const PREFIX = 'cnf_';
const LENGTH = 32;

/**
 * Confirmation tokens: `cnf_` and 32 base62 characters (190 bits). Only their SHA-256 is
 * stored, which suits a random, high-entropy secret (as for API keys).
 */
export function newConfirmationToken(): { token: string; hash: string } {
  const token = `${PREFIX}${randomBase62(LENGTH)}`;
  return { token, hash: hashOf(token)! };
}

/** The stored form of a token; undefined for anything that is not a well-formed token. */
export function hashOf(token: unknown): string | undefined {
  if (typeof token !== 'string' || !CONFIRMATION_TOKEN_PATTERN.test(token)) return undefined;
  return createHash('sha256').update(token).digest('hex');
}
