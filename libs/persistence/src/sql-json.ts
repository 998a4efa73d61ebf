/**
 * SQL expressions of type text that build JSON text in Postgres exactly as JSON.stringify writes
 * the same values in JavaScript: compact, members in the order given, strings escaped alike,
 * timestamps as Date#toISOString writes them (milliseconds, truncated as a Date truncates the
 * microseconds it is read with), numbers as Number#toString writes them. So a read can answer the
 * text Postgres made, and its digest (an ETag) is the one JavaScript would compute of the same
 * view.
 *
 * A value JavaScript would write another way (a timestamp outside the years 1 to 9999, a number
 * Postgres writes with an exponent or cannot write in its shortest form) makes the whole text
 * SQL NULL, never a different text: the caller builds that answer in JavaScript instead. Every
 * expression takes the SQL of its value (a column, usually) and may repeat it.
 */
export type JsonSql = string;

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** What Date#toISOString writes for the years 1 to 9999, read in UTC. */
const ISO_FORMAT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export const jsonSql = {
  /** A text (or uuid, or enum) value; null for SQL NULL. Postgres escapes as JSON.stringify does. */
  string: (sql: string): JsonSql => `COALESCE(to_json(${sql})::text, 'null')`,

  /** An integer or boolean value: its own text is its JSON. */
  scalar: (sql: string): JsonSql => `COALESCE((${sql})::text, 'null')`,

  /** A double precision value, written as Number#toString would write it, or NULL when it cannot be. */
  number: (sql: string): JsonSql =>
    `(CASE WHEN ${sql} IS NULL THEN 'null' WHEN ${sql} = 0 THEN '0'
      WHEN (${sql})::text !~ '[eEnN]' AND (${sql})::text::float8 = ${sql} THEN (${sql})::text END)`,

  /** A timestamptz as Date#toISOString writes it, or NULL when it is outside the years 1 to 9999. */
  timestamp: (sql: string): JsonSql =>
    `(CASE WHEN ${sql} IS NULL THEN 'null'
      WHEN ${sql} >= '0001-01-01T00:00:00Z' AND ${sql} < '10000-01-01T00:00:00Z'
      THEN '"' || to_char(${sql} AT TIME ZONE 'UTC', ${ISO_FORMAT}) || '"' END)`,

  /** A jsonb array of strings (or null), compact (jsonb's own text has spaces); NULL for any other jsonb. */
  stringArray: (sql: string): JsonSql =>
    `(CASE WHEN ${sql} IS NULL OR jsonb_typeof(${sql}) = 'null' THEN 'null'
      WHEN jsonb_typeof(${sql}) = 'array' AND NOT EXISTS
        (SELECT 1 FROM jsonb_array_elements(${sql}) AS x(element) WHERE jsonb_typeof(x.element) <> 'string') THEN
      (SELECT COALESCE('[' || string_agg(to_json(e.value)::text, ',' ORDER BY e.n) || ']', '[]')
       FROM jsonb_array_elements_text(${sql}) WITH ORDINALITY AS e(value, n)) END)`,

  /** An object of these members, in this order. */
  object: (members: Readonly<Record<string, JsonSql>>): JsonSql => {
    const parts = Object.entries(members).map(([key, value], i) => {
      if (!KEY.test(key)) throw new Error(`Not a plain member name: ${key}`);
      return `'${i === 0 ? '{' : ','}"${key}":' || ${value}`;
    });
    return parts.length === 0 ? `'{}'` : `(${parts.join(' || ')} || '}')`;
  },

  /**
   * An array of `element` for each row of `from` (the SQL after a SELECT list: FROM … WHERE …),
   * in the order of the `orderBy` expressions (each ascending); NULL when any element is.
   */
  array: (element: JsonSql, from: string, orderBy: readonly string[]): JsonSql => {
    const keys = orderBy.map((sql, i) => `${sql} AS o${i}`).join(', ');
    const order = orderBy.map((_, i) => `a.o${i}`).join(', ');
    return `(SELECT CASE WHEN count(*) = count(a.element) THEN COALESCE('[' || string_agg(a.element, ',' ORDER BY ${order}) || ']', '[]') END
      FROM (SELECT ${element} AS element, ${keys} ${from}) a)`;
  },
};
