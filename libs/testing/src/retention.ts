import type { AppDefinition, RunningApp } from '#libs/runtime';
import { createTestStack, type TestStack } from './test-infrastructure.js';

/** Rows of one table: `seed` inserts old rows and rows that must stay; `left` then reads what is left. */
export interface RetentionCase {
  table: string;
  seed: string[];
  left: string;
  expected: unknown[];
  /** Rows the run reports deleted from the table. */
  deleted: number;
}

/** Rows per kind the cases insert: more than one batch of the job's (RETENTION_BATCH_SIZE is 2 here). */
export const SEEDED = 5;

/**
 * The outbox rows and processed event ids of a schema with an outbox: published a day ago
 * (deleted), published lately, or never published however old (kept); processed ids a day old
 * (deleted) or lately (kept).
 */
export function outboxRetentionCases(schema: string): RetentionCase[] {
  const seedOutbox = (type: string, created: string, published: string | null) =>
    `INSERT INTO "${schema}"."outbox" ("id", "type", "payload", "created_at", "published_at")
     SELECT gen_random_uuid(), '${type}', '{}', now() - interval '${created}', ${published === null ? 'NULL' : `now() - interval '${published}'`}
     FROM generate_series(1, ${SEEDED})`;
  const seedProcessed = (consumer: string, age: string) =>
    `INSERT INTO "${schema}"."processed_events" ("consumer", "event_id", "processed_at")
     SELECT '${consumer}', gen_random_uuid(), now() - interval '${age}' FROM generate_series(1, ${SEEDED})`;
  return [
    {
      table: 'outbox',
      // The relay may publish the unpublished rows meanwhile; they are kept either way.
      seed: [
        seedOutbox('test.old', '3 days', '25 hours'),
        seedOutbox('test.recent', '3 days', '23 hours'),
        seedOutbox('test.unpublished', '30 days', null),
      ],
      left: `SELECT "type", count(*)::int AS "count" FROM "${schema}"."outbox" WHERE "type" LIKE 'test.%' GROUP BY 1 ORDER BY 1`,
      expected: [
        { type: 'test.recent', count: SEEDED },
        { type: 'test.unpublished', count: SEEDED },
      ],
      deleted: SEEDED,
    },
    {
      table: 'processed_events',
      seed: [seedProcessed('test-old', '193 hours'), seedProcessed('test-recent', '191 hours')],
      left: `SELECT "consumer", count(*)::int AS "count" FROM "${schema}"."processed_events" WHERE "consumer" LIKE 'test-%' GROUP BY 1 ORDER BY 1`,
      expected: [{ consumer: 'test-recent', count: SEEDED }],
      deleted: SEEDED,
    },
  ];
}

/**
 * An app's retention job, as booted with the app's default settings (batches of 2): one run
 * deletes the old rows of every case's table and keeps the others.
 */
export function describeRetention(definition: AppDefinition, cases: RetentionCase[], env: Record<string, string> = {}): void {
  describe(`${definition.name} retention`, () => {
    let stack: TestStack;
    let running: RunningApp;
    let deleted: Record<string, number> | null;

    beforeAll(async () => {
      stack = await createTestStack(`${definition.name}-retention`, { env });
      running = await stack.boot(definition, { RETENTION_BATCH_SIZE: '2' });
      const db = running.context.dataSource!;
      for (const statement of cases.flatMap((c) => c.seed)) await db.query(statement);
      deleted = await running.retention!.runOnce();
    });

    afterAll(() => stack.close());

    it.each(cases.map((c) => [c.table, c] as const))('deletes the old rows of %s and keeps the others', async (_table, c) => {
      expect(await running.context.dataSource!.query(c.left)).toEqual(c.expected);
      expect(deleted?.[c.table]).toBe(c.deleted);
    });
  });
}
