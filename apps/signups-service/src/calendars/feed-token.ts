import { CALENDAR_FEED_TOKEN_PATTERN, randomBase62, sha256Hex } from '#libs/contracts';

/**
 * Calendar feed tokens: `cal_` and 32 base62 characters (190 bits), like confirmation tokens.
 * Only their SHA-256 is stored, which suits a random, high-entropy secret; a feed is found by that
 * hash, so no stored secret is ever compared.
 */
export function newFeedToken(): { token: string; hash: string } {
  const token = `cal_${randomBase62(32)}`;
  return { token, hash: feedTokenHash(token)! };
}

/** The stored form of a token; undefined for anything that is not a well-formed token. */
export function feedTokenHash(token: unknown): string | undefined {
  if (typeof token !== 'string' || !CALENDAR_FEED_TOKEN_PATTERN.test(token)) return undefined;
  return sha256Hex(token);
}
