import { ProblemError } from '#libs/problem';

export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

const MAX_LENGTH = 255;
/** The longest header that can hold a valid key: a quoted sf-string whose every character is escaped. */
const MAX_HEADER_LENGTH = 2 * MAX_LENGTH + 2;
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
/** An RFC 8941 sf-string: printable ASCII with `"` and `\` escaped by a backslash. */
const SF_STRING = /^"((?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\["\\])*)"$/;

function invalid(message: string): ProblemError {
  return ProblemError.validation([{ path: 'Idempotency-Key', message }], 'The Idempotency-Key header is not valid.');
}

/**
 * The Idempotency-Key of a request: 1..255 visible ASCII characters, or the same as a quoted
 * structured-field string (its quotes and escapes removed). undefined when the header is absent.
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header)) throw invalid('Send one Idempotency-Key');
  if (header.length > MAX_HEADER_LENGTH) throw invalid(`Idempotency-Key must be at most ${MAX_LENGTH} characters`);
  const quoted = SF_STRING.exec(header);
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : header;
  if (key.length === 0) throw invalid('Idempotency-Key must not be empty');
  if (key.length > MAX_LENGTH) throw invalid(`Idempotency-Key must be at most ${MAX_LENGTH} characters`);
  if (!VISIBLE_ASCII.test(key)) throw invalid('Idempotency-Key must be visible ASCII characters');
  return key;
}
