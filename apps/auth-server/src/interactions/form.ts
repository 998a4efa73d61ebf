/** A urlencoded form body as Fastify parses it: repeated names become arrays. */
export type Form = Record<string, string | string[] | undefined>;

/** One text field; missing or repeated reads as empty. */
export function field(form: Form | undefined, name: string): string {
  const value = form?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a repeatable field (checkboxes). */
export function fields(form: Form | undefined, name: string): string[] {
  const value = form?.[name];
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}
