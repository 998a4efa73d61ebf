import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource, type DatabaseTarget, type DataSourceSpec, migrate } from './data-source.js';
import { openEmbeddedDatabase } from './embedded-database.js';
import { sqlMigration } from './migrations.js';
import { pruneOnce, type PruneRule, retentionLeaseSql } from './retention.js';
import { createTestDatabase } from './test-database.js';

const SCHEMA = 'kept';
const DAY = 86_400;

const spec: DataSourceSpec = {
  schema: SCHEMA,
  entities: [],
  outbox: false,
  migrations: [
    sqlMigration('Kept1700000000000', retentionLeaseSql(SCHEMA), {
      up: [
        `CREATE TABLE "kept"."items" ("group" text NOT NULL, "n" int NOT NULL, "at" timestamptz NULL, "pending" boolean NOT NULL DEFAULT false, PRIMARY KEY ("group", "n"))`,
        `CREATE TABLE "kept"."others" ("id" int PRIMARY KEY, "expires_at" timestamptz NOT NULL)`,
      ],
      down: [`DROP TABLE "kept"."others"`, `DROP TABLE "kept"."items"`],
    }),
  ],
};

const rules: PruneRule[] = [
  { table: 'items', key: ['group', 'n'], after: 'at', retentionSeconds: DAY, only: `NOT "pending"` },
  { table: 'others', key: ['id'], after: 'expires_at', retentionSeconds: 3600 },
];

interface Target {
  target: DatabaseTarget;
  close(): Promise<void>;
}

const targets: [string, () => Promise<Target>][] = [
  [
    'Postgres',
    async () => {
      const database = await createTestDatabase('retention');
      return { target: { url: database.url }, close: () => database.drop() };
    },
  ],
  [
    'the embedded database (PGlite)',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'retention-'));
      const embedded = await openEmbeddedDatabase(dir);
      return {
        target: embedded.target(spec),
        close: async () => {
          await embedded.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];

describe.each(targets)('pruneOnce on %s', (_name, open) => {
  let target: Target;
  let replicas: DataSource[];
  let db: DataSource;

  beforeAll(async () => {
    target = await open();
    replicas = [createDataSource(spec, target.target), createDataSource(spec, target.target)];
    for (const replica of replicas) await replica.initialize();
    db = replicas[0]!;
    await migrate(db);
  });

  afterAll(async () => {
    for (const replica of replicas) await replica.destroy();
    await target.close();
  });

  beforeEach(async () => {
    await db.query(`TRUNCATE "kept"."items", "kept"."others", "kept"."retention_leases"`);
  });

  /** `count` rows of a group, `age` old (a Postgres interval), pending or not. */
  const insertItems = (group: string, count: number, age: string | null, pending = false) =>
    db.query(
      `INSERT INTO "kept"."items" ("group", "n", "at", "pending")
       SELECT $1, n, now() - $2::interval, $3 FROM generate_series(1, $4) AS n`,
      [group, age, pending, count],
    );

  const groups = async () =>
    (await db.query(`SELECT "group", count(*)::int AS "count" FROM "kept"."items" GROUP BY 1 ORDER BY 1`)) as {
      group: string;
      count: number;
    }[];

  it('deletes only the rows past their retention, batch after batch until none is left', async () => {
    await insertItems('old', 23, '25 hours');
    await insertItems('new', 4, '23 hours');
    await insertItems('undated', 2, null);
    await insertItems('pending', 3, '30 days', true);
    await db.query(
      `INSERT INTO "kept"."others" VALUES (1, now() - interval '2 hours'), (2, now() - interval '30 minutes'), (3, now() + interval '1 hour')`,
    );

    expect(await pruneOnce(db, SCHEMA, rules, { batchSize: 5 })).toEqual({ items: 23, others: 1 });

    expect(await groups()).toEqual([
      { group: 'new', count: 4 },
      { group: 'pending', count: 3 },
      { group: 'undated', count: 2 },
    ]);
    expect(await db.query(`SELECT "id" FROM "kept"."others" ORDER BY 1`)).toEqual([{ id: 2 }, { id: 3 }]);
  });

  it('prunes nothing while another replica holds the job, and takes it over once that lease ran out', async () => {
    await insertItems('old', 3, '2 days');
    await db.query(`INSERT INTO "kept"."retention_leases" VALUES ('retention', gen_random_uuid(), now() + interval '1 minute')`);

    expect(await pruneOnce(replicas[1]!, SCHEMA, rules, { batchSize: 5 })).toBeNull();
    expect(await groups()).toEqual([{ group: 'old', count: 3 }]);

    await db.query(`UPDATE "kept"."retention_leases" SET "until" = now() - interval '1 second'`);
    expect(await pruneOnce(replicas[1]!, SCHEMA, rules, { batchSize: 5 })).toEqual({ items: 3, others: 0 });
  });

  it('lets one of two replicas running at once prune, and frees the job when it is done', async () => {
    await insertItems('old', 40, '2 days');

    const results = await Promise.all(replicas.map((replica) => pruneOnce(replica, SCHEMA, rules, { batchSize: 2 })));

    expect(results.filter((result) => result === null || result.items === 0)).toHaveLength(1);
    expect(results.filter((result) => result !== null && result.items === 40)).toHaveLength(1);
    expect(await groups()).toEqual([]);
    expect(await db.query(`SELECT * FROM "kept"."retention_leases"`)).toEqual([]);
  });

  it('stops between batches when told to', async () => {
    await insertItems('old', 10, '2 days');
    let batches = 0;
    expect(await pruneOnce(db, SCHEMA, rules, { batchSize: 3, stopping: () => batches++ >= 2 })).toEqual({ items: 6 });
    expect(await groups()).toEqual([{ group: 'old', count: 4 }]);
  });
});
