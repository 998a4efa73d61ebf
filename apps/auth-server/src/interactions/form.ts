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

/** One text field; missing or repeated reads as empty. */
export function field(form: Form | undefined, name: string): string {
  const value = form?.[name];
  return typeof value === 'string' ? bounded(value) : '';
}

/** Every value of a repeatable field (checkboxes). */
export function fields(form: Form | undefined, name: string): string[] {
  const value = form?.[name];
  if (value === undefined) return [];
  return (typeof value === 'string' ? [value] : value).map(bounded);
}
