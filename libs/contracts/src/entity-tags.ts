import { createHash } from 'node:crypto';
import { ProblemError } from '#libs/problem';

/** The conditional request headers (RFC 9110 §13.1), as Node names them. */
export const IF_MATCH_HEADER = 'if-match';
export const IF_NONE_MATCH_HEADER = 'if-none-match';

/** Longest If-Match or If-None-Match accepted: room for 40 of our tags; anything longer is refused. */
export const MAX_CONDITION_LENGTH = 2048;

/** One entity-tag: its opaque-tag (with the quotes) and whether it was marked weak (W/). */
export interface EntityTag {
  weak: boolean;
  opaque: string;
}

/** A parsed If-Match or If-None-Match: `*` (any current representation) or a list of tags. */
export type EntityTagCondition = { any: true } | { any: false; tags: EntityTag[] };

/** entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE; etagc = %x21 / %x23-7E / obs-text (%x80-FF). */
const ENTITY_TAG = /^(W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/;

/** JSON with object keys sorted and undefined members left out: two values that print the same as JSON give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The strong ETag of a representation as sent: SHA-256 of its JSON text, base64url, quoted. */
export function etagOfJson(json: string): string {
  return `"${createHash('sha256').update(json).digest('base64url')}"`;
}

/**
 * The strong ETag of a view: etagOfJson of its JSON.stringify, the text the gateway sends for it
 * (a view crosses the bus as JSON and is sent as it came, members in the order its presenter made
 * them). The gateway tags the text it sends, with no parsing again; a service checks If-Match
 * against this function applied to the view it would answer, so the two agree.
 */
export function etagOf(view: unknown): string {
  return etagOfJson(JSON.stringify(view) ?? 'null');
}

function invalid(header: string, message: string): ProblemError {
  return ProblemError.validation([{ path: header, message }], `The ${header} header is not valid.`);
}

/**
 * Parses If-Match or If-None-Match (`header` names it in the problem): `*`, or a comma-separated
 * list of entity-tags with optional whitespace and empty elements (RFC 9110 §5.6.1). undefined
 * when absent; anything else (a bare token, a control character, a character past U+00FF, more
 * than MAX_CONDITION_LENGTH characters, no tag at all) is 422 validation_failed on the header.
 */
export function parseEntityTags(
  value: string | string[] | undefined,
  header: 'If-Match' | 'If-None-Match',
): EntityTagCondition | undefined {
  if (value === undefined) return undefined;
  const text = Array.isArray(value) ? value.join(',') : value;
  if (text.length > MAX_CONDITION_LENGTH) throw invalid(header, `${header} must be at most ${MAX_CONDITION_LENGTH} characters`);
  const trimmed = text.trim();
  if (trimmed === '*') return { any: true };
  const tags: EntityTag[] = [];
  for (const element of trimmed.split(',')) {
    const item = element.replace(/^[ \t]+|[ \t]+$/g, '');
    if (item === '') continue;
    const match = ENTITY_TAG.exec(item);
    if (!match) throw invalid(header, `${header} must be * or a list of entity-tags such as "abc" or W/"abc"`);
    tags.push({ weak: match[1] !== undefined, opaque: match[2]! });
  }
  if (tags.length === 0) throw invalid(header, `${header} must be * or a list of entity-tags such as "abc" or W/"abc"`);
  return { any: false, tags };
}

/** If-None-Match: true when it names the current tag by weak comparison (W/ ignored), or is `*`. */
export function noneMatchHolds(condition: EntityTagCondition, current: string): boolean {
  return condition.any || condition.tags.some((tag) => tag.opaque === current);
}

/** If-Match: true when it is `*` or names the current tag by strong comparison (a weak tag never matches). */
export function ifMatchHolds(condition: EntityTagCondition, current: string): boolean {
  return condition.any || condition.tags.some((tag) => !tag.weak && tag.opaque === current);
}

/**
 * The check a service makes in the transaction that holds the resource's row locked: nothing
 * when the request carried no If-Match; 412 precondition_failed when the view it would answer
 * now does not carry a tag the request named.
 */
export function requireIfMatch(ifMatch: string | undefined, view: unknown): void {
  const condition = parseEntityTags(ifMatch, 'If-Match');
  if (condition && !ifMatchHolds(condition, etagOf(view))) {
    throw new ProblemError(
      'precondition_failed',
      'The resource changed since the ETag in If-Match was issued. Read it again and reapply the change.',
    );
  }
}
