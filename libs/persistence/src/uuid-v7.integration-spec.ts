import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { version as uuidVersion } from 'uuid';
import { createDataSource } from './data-source.js';
import { openEmbeddedDatabase } from './embedded-database.js';
import { prepared, rowsOf } from './rows.js';
import { createTestDatabase } from './test-database.js';
import { UUID_V7_SQL } from './uuid-v7.js';

interface Opened {
  dataSource: DataSource;
  close(): Promise<void>;
}

async function postgres(): Promise<Opened> {
  const database = await createTestDatabase('uuid_v7');
  const dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
  return { dataSource, close: async () => (await dataSource.destroy(), await database.drop()) };
}

async function embedded(): Promise<Opened> {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-uuid-'));
  const db = await openEmbeddedDatabase(dir);
  const spec = { schema: 'public', entities: [], migrations: [] };
  const dataSource = await createDataSource(spec, db.target(spec)).initialize();
  return {
    dataSource,
    close: async () => {
      await dataSource.destroy();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The Unix milliseconds in a v7's first 48 bits. */
const millisOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe.each([
  ['Postgres', postgres],
  ['the embedded database (PGlite)', embedded],
])('UUID_V7_SQL on %s', (_name, open) => {
  let opened: Opened;

  beforeAll(async () => {
    opened = await open();
  });

  afterAll(() => opened.close());

  it('makes a distinct RFC 9562 v7 for each row of one statement (version 7, variant 10), stamped with the time it was made', async () => {
    const before = Date.now();
    const rows = await rowsOf<{ id: string }>(
      opened.dataSource.manager,
      prepared(`SELECT ${UUID_V7_SQL} AS id FROM generate_series(1, 1000)`),
    );
    const after = Date.now();
    expect(rows).toHaveLength(1000);
    expect(new Set(rows.map((row) => row.id)).size).toBe(1000);
    for (const { id } of rows) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(uuidVersion(id)).toBe(7);
      expect(millisOf(id)).toBeGreaterThanOrEqual(before);
      expect(millisOf(id)).toBeLessThanOrEqual(after);
    }
  });

  it('leaves the 74 bits after the time, version and variant random', async () => {
    const rows = await rowsOf<{ id: string }>(opened.dataSource.manager, `SELECT ${UUID_V7_SQL} AS id FROM generate_series(1, 256)`);
    const hex = rows.map((row) => row.id.replace(/-/g, ''));
    // Each random bit is set in some ids and clear in others (a fixed bit would be one or the other in all 256).
    const randomBits = (value: (id: string) => bigint, bits: number) =>
      Array.from({ length: bits }, (_, bit) => new Set(hex.map((id) => (value(id) >> BigInt(bit)) & 1n)).size);
    const randA = (id: string) => BigInt(`0x${id.slice(13, 16)}`);
    const randB = (id: string) => BigInt(`0x${id.slice(16)}`) & ((1n << 62n) - 1n);
    expect(randomBits(randA, 12)).toEqual(Array(12).fill(2));
    expect(randomBits(randB, 62)).toEqual(Array(62).fill(2));
  });
});
