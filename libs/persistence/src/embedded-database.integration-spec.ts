import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createDataSource, migrate } from './data-source.js';
import { type EmbeddedDatabase, openEmbeddedDatabase } from './embedded-database.js';
import { prepared, rowsOf } from './rows.js';

function counterMigration(schema: string): new () => MigrationInterface {
  return class {
    name = `Counter${schema}1700000000000`;
    async up(runner: QueryRunner) {
      await runner.query(`CREATE TABLE "${schema}".counter (name text PRIMARY KEY, value int NOT NULL)`);
      await runner.query(`INSERT INTO "${schema}".counter VALUES ('c', 0)`);
    }
    async down(runner: QueryRunner) {
      await runner.query(`DROP TABLE "${schema}".counter`);
    }
  };
}

async function open(db: EmbeddedDatabase, schema: string): Promise<DataSource> {
  const spec = { schema, entities: [], migrations: [counterMigration(schema)] };
  const ds = createDataSource(spec, db.target(spec));
  await ds.initialize();
  await migrate(ds);
  return ds;
}

async function incrementMany(ds: DataSource, schema: string, n: number): Promise<void> {
  await Promise.all(
    Array.from({ length: n }, () =>
      ds.transaction(async (manager) => {
        const [row] = (await manager.query(`SELECT value FROM counter WHERE name = 'c' FOR UPDATE`)) as { value: number }[];
        await new Promise((r) => setTimeout(r, 1));
        await manager.query(`UPDATE "${schema}".counter SET value = $1 WHERE name = 'c'`, [row!.value + 1]);
      }),
    ),
  );
}

describe('embedded database (all-in-one mode)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-test-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serializes interleaved transactions of several apps exactly, and keeps data across restarts', async () => {
    let db = await openEmbeddedDatabase(dir);
    let [a, b] = await Promise.all([open(db, 'a'), open(db, 'b')]);
    await Promise.all([incrementMany(a, 'a', 30), incrementMany(b, 'b', 30)]);
    expect(await a.query(`SELECT value FROM counter`)).toEqual([{ value: 30 }]);
    expect(await b.query(`SELECT value FROM counter`)).toEqual([{ value: 30 }]);
    await a.destroy();
    await b.destroy();
    await db.close();

    db = await openEmbeddedDatabase(dir);
    [a, b] = [await open(db, 'a'), await open(db, 'b')];
    expect(await a.query(`SELECT value FROM counter`)).toEqual([{ value: 30 }]);
    await a.destroy();
    await b.destroy();
    await db.close();
  });

  it('runs the prepared statements of several apps on the shared connection, each with its own text', async () => {
    const db = await openEmbeddedDatabase(dir);
    const [a, b] = await Promise.all([open(db, 'a'), open(db, 'b')]);
    await a.query(`UPDATE "a".counter SET value = 1`);
    await b.query(`UPDATE "b".counter SET value = 2`);
    const valueOf = (schema: string) => prepared(`SELECT value FROM "${schema}".counter WHERE name = $1`);
    const shared = prepared(`SELECT $1::int + 1 AS next`);
    const reads = await Promise.all(
      Array.from({ length: 10 }, (_, i) => [
        rowsOf(a.manager, valueOf('a'), ['c']),
        rowsOf(b.manager, valueOf('b'), ['c']),
        rowsOf(i % 2 ? a.manager : b.manager, shared, [i]),
      ]).flat(),
    );
    expect(reads.filter((_, i) => i % 3 === 2)).toEqual(Array.from({ length: 10 }, (_, i) => [{ next: i + 1 }]));
    expect(reads.filter((_, i) => i % 3 === 0)).toEqual(Array(10).fill([{ value: 1 }]));
    expect(reads.filter((_, i) => i % 3 === 1)).toEqual(Array(10).fill([{ value: 2 }]));
    await a.destroy();
    await b.destroy();
    await db.close();
  });

  it('refuses a data folder another live process holds', async () => {
    const db = await openEmbeddedDatabase(dir);
    writeFileSync(join(dir, 'postmaster.lock'), String(process.ppid));
    await expect(openEmbeddedDatabase(dir)).rejects.toThrow(/in use by process/);
    writeFileSync(join(dir, 'postmaster.lock'), String(process.pid));
    await db.close();
  });
});
