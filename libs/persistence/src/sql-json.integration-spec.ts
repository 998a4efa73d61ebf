import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source.js';
import { openEmbeddedDatabase } from './embedded-database.js';
import { rowsOf } from './rows.js';
import { jsonSql } from './sql-json.js';
import { createTestDatabase } from './test-database.js';

interface Case {
  /** The SQL of the value, from the parameter $1 (given as text). */
  sql: string;
  given: string | null;
  /** JavaScript would write it another way: the JSON must be SQL NULL. */
  unwritable?: true;
}

const text = (given: string | null): Case => ({ sql: '$1::text', given });
const float = (given: string, unwritable?: true): Case => ({ sql: '$1::text::float8', given, unwritable });
const time = (given: string | null, unwritable?: true): Case => ({ sql: '$1::text::timestamptz', given, unwritable });
const strings = (given: string | null, unwritable?: true): Case => ({ sql: '$1::text::jsonb', given, unwritable });

const CASES: Record<'string' | 'number' | 'timestamp' | 'stringArray', Case[]> = {
  string: [
    text('plain'),
    text('quote " and \\ backslash'),
    text('controls \u0001\u001f\b\f\n\r\t'),
    text('del \u007f, separators \u2028\u2029, </script>'),
    text('emoji 👩‍👩‍👧, combining é, CJK 表'),
    text(''),
    text(null),
  ],
  number: [
    float('0'),
    float('-0'),
    float('1.5'),
    float('-42'),
    float('0.30000000000000004'),
    float('123456789012345.67'),
    float('0.0001'),
    float('100000000000000'),
    float('1e-5', true),
    float('1e15', true),
    float('1e21', true),
    float('5e-324', true),
    float('1.7976931348623157e308', true),
  ],
  timestamp: [
    time('2026-06-01T18:00:00Z'),
    time('2026-06-01T18:00:00.123456Z'),
    time('2026-06-01T18:00:00.999999+02:00'),
    time('0005-03-04T05:06:07.089Z'),
    time('9999-12-31T23:59:59.999Z'),
    time('9999-12-31T23:00:00-05:00', true),
    time(null),
  ],
  stringArray: [
    strings('["a", "b \\"q\\"", "é\\n"]'),
    strings('[]'),
    strings('null'),
    strings(null),
    strings('{"a": 1}', true),
    strings('["a", 1]', true),
    strings('["a", null]', true),
  ],
};

async function embedded(): Promise<{ ds: DataSource; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-json-'));
  const db = await openEmbeddedDatabase(dir);
  const spec = { schema: 'json', entities: [], migrations: [] };
  const ds = await createDataSource(spec, db.target(spec)).initialize();
  return {
    ds,
    close: async () => {
      await ds.destroy();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Postgres whose database defaults differ from the settings connections pin (SESSION_SETTINGS). */
async function server(): Promise<{ ds: DataSource; close: () => Promise<void> }> {
  const database = await createTestDatabase('sql_json');
  const name = new URL(database.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  await admin.query(`ALTER DATABASE "${name}" SET extra_float_digits = 3`);
  await admin.query(`ALTER DATABASE "${name}" SET TimeZone = 'Pacific/Chatham'`);
  await admin.query(`ALTER DATABASE "${name}" SET DateStyle = 'SQL, DMY'`);
  await admin.end();
  const spec = { schema: 'json', entities: [], migrations: [] };
  const ds = await createDataSource(spec, { url: database.url }).initialize();
  return {
    ds,
    close: async () => {
      await ds.destroy();
      await database.drop();
    },
  };
}

describe.each([
  ['Postgres', server],
  ['the embedded database', embedded],
])('JSON written by %s', (_, open) => {
  let ds: DataSource;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ ds, close } = await open());
  });

  afterAll(() => close());

  /** The value as the driver reads it (what a presenter gets), and the JSON Postgres wrote of it. */
  async function written(sql: string, json: string, given: string | null): Promise<{ value: unknown; json: string | null }> {
    const [row] = await rowsOf<{ value: unknown; json: string | null }>(ds, `SELECT ${sql} AS value, ${json} AS json`, [given]);
    return row!;
  }

  it.each(Object.entries(CASES).flatMap(([kind, cases]) => cases.map((c) => [kind, c.given, c] as const)))(
    '%s %j: as JSON.stringify writes it, or NULL when it cannot be',
    async (kind, _given, c) => {
      const { value, json } = await written(c.sql, jsonSql[kind as keyof typeof CASES](c.sql), c.given);
      expect(json).toBe(c.unwritable ? null : JSON.stringify(value));
    },
  );

  it('runs under the settings every connection pins, whatever the database defaults to', async () => {
    const [row] = await rowsOf<Record<string, string>>(
      ds,
      `SELECT current_setting('TimeZone') AS "TimeZone", current_setting('DateStyle') AS "DateStyle",
              current_setting('extra_float_digits') AS extra_float_digits`,
    );
    expect(row).toEqual({ TimeZone: 'UTC', DateStyle: 'ISO, MDY', extra_float_digits: '1' });
  });

  it('writes an object with its members in order, compact', async () => {
    const object = jsonSql.object({
      name: jsonSql.string('$1::text'),
      size: jsonSql.scalar('2'),
      nested: jsonSql.object({ ok: jsonSql.scalar('true') }),
    });
    expect((await written('$1::text', object, 'a "b"')).json).toBe(JSON.stringify({ name: 'a "b"', size: 2, nested: { ok: true } }));
    expect((await written('$1::text', jsonSql.object({}), null)).json).toBe('{}');
  });

  it('writes an array of rows in order, [] for none, and NULL when one element cannot be written', async () => {
    const numbers = (rows: string) => jsonSql.array(jsonSql.number('x.n'), `FROM (VALUES ${rows}) x(n, o) WHERE $1::text IS NULL`, ['x.o']);
    expect((await written('1', numbers(`(2.5::float8, 2), (1::float8, 1), (-3::float8, 3)`), null)).json).toBe('[1,2.5,-3]');
    expect((await written('1', numbers(`(1::float8, 1)`), 'none')).json).toBe('[]');
    expect((await written('1', numbers(`(1::float8, 1), (1e-7::float8, 2)`), null)).json).toBeNull();
  });

  it('refuses a member name it would have to escape', () => {
    expect(() => jsonSql.object({ 'a"b': jsonSql.scalar('1') })).toThrow('Not a plain member name');
  });
});
