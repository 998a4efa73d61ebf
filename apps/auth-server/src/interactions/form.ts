import { isWellFormed } from '#libs/contracts';

/** A urlencoded form body as Fastify parses it: repeated names become arrays. */
export type Form = Record<string, string | string[] | undefined>;

/**
 * Longer than any field of the auth-server's forms may be (emails 320, passwords and names 200):
 * a value is cut here, still too long for its own check, so no page echoes, hashes or keys a
 * limit counter by a megabyte a caller sent.
 */
export const FIELD_MAX_LENGTH = 1000;

function bounded(value: string): string {
  return value.length > FIELD_MAX_LENGTH ? value.slice(0, FIELD_MAX_LENGTH) : value;
}

/**
 * Text a browser can send. A form post cannot carry a lone surrogate (percent-decoding leaves
 * such bytes as they are), but a JSON body posted to the same route can: it would be stored as
 * U+FFFD, or make a check throw, so it reads as absent.
 */
const isText = (value: unknown): value is string => typeof value === 'string' && isWellFormed(value);

/** One text field; missing, repeated or not valid Unicode reads as empty. */
export function field(form: Form | undefined, name: string): string {
  const value = form?.[name];
  return isText(value) ? bounded(value) : '';
}

/** Every value of a repeatable field (checkboxes) that is text, each cut the same way. */
export function fields(form: Form | undefined, name: string): string[] {
  const value: unknown = form?.[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).filter(isText).map(bounded);
}
