import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { InProcessBus, outboxMigrationSql, outboxTraceContextSql } from '#libs/bus';
import { cloudEvent } from '#libs/contracts';
import { createLogger, Metrics, runWithRequestId } from '#libs/observability';
import { createDataSource, createTestDatabase, type TestDatabase } from '#libs/persistence';
import { instrumentBus } from './instrumented-bus.js';
import { Outbox } from './outbox.js';

const schema = 'lag_test';
const logger = createLogger('lag-test', 'silent');
const ours = [`schema="${schema}"`];

let db: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  db = await createTestDatabase('runtime_lag');
  dataSource = createDataSource({ schema, entities: [], migrations: [] }, { url: db.url });
  await dataSource.initialize();
  await dataSource.query(`CREATE SCHEMA "${schema}"`);
  for (const sql of [...outboxMigrationSql(schema).up, ...outboxTraceContextSql(schema).up]) await dataSource.query(sql);
});

afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

/** The value of one sample of the app's /metrics text, by name and labels (in any order). */
async function sample(metrics: Metrics, name: string, labels: string[] = []): Promise<number> {
  const wanted = ['app="lag-test"', ...labels].sort().join(',');
  const line = (await metrics.render()).split('\n').find(
    (l) =>
      l.startsWith(`${name}{`) &&
      l
        .slice(name.length + 1, l.indexOf('}'))
        .split(',')
        .sort()
        .join(',') === wanted,
  );
  return Number(line?.split(' ')[1]);
}

function revoked() {
  return { apiKeyId: randomUUID(), organizationId: 'org_test', livemode: false };
}

describe('outbox lag gauges', () => {
  it('count the events committed and not yet published, and the age of the oldest, until the relay sends them', async () => {
    const metrics = new Metrics('lag-test', { defaultMetrics: false });
    const bus = new InProcessBus(logger);
    const outbox = new Outbox(dataSource, schema, 'lag-test', bus, logger, metrics);
    expect([await sample(metrics, 'outbox_pending_events', ours), await sample(metrics, 'outbox_oldest_pending_seconds', ours)]).toEqual([
      0, 0,
    ]);
    for (let i = 0; i < 2; i++) {
      await outbox.transaction((tx) => tx.emit('auth.apikey.revoked', revoked(), { orgid: 'org_test', livemode: false }));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sample(metrics, 'outbox_pending_events', ours)).toBe(2);
    expect(await sample(metrics, 'outbox_oldest_pending_seconds', ours)).toBeGreaterThanOrEqual(0.05);
    outbox.start();
    try {
      for (let i = 0; i < 100 && (await sample(metrics, 'outbox_pending_events', ours)) > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect([await sample(metrics, 'outbox_pending_events', ours), await sample(metrics, 'outbox_oldest_pending_seconds', ours)]).toEqual([
        0, 0,
      ]);
    } finally {
      await outbox.stop();
      await bus.close();
    }
  });
});

describe('outbox transactions', () => {
  const meta = { orgid: 'org_test', livemode: false };

  it('record each event with the request it was emitted in, all in one commit', async () => {
    const outbox = new Outbox(
      dataSource,
      schema,
      'lag-test',
      new InProcessBus(logger),
      logger,
      new Metrics('lag-test', { defaultMetrics: false }),
    );
    const [first, second] = [revoked(), revoked()];
    await outbox.transaction(async (tx) => {
      await runWithRequestId('req-first', () => tx.emit('auth.apikey.revoked', first, meta));
      await runWithRequestId('req-second', () => tx.emit('auth.apikey.revoked', second, meta));
    });
    const rows = (await dataSource.query(
      `SELECT payload->'data'->>'apiKeyId' AS key, request_id, created_at::text AS created_at FROM "${schema}".outbox WHERE payload->'data'->>'apiKeyId' = ANY($1::text[])`,
      [[first.apiKeyId, second.apiKeyId]],
    )) as { key: string; request_id: string; created_at: string }[];
    expect(Object.fromEntries(rows.map((row) => [row.key, row.request_id]))).toEqual({
      [first.apiKeyId]: 'req-first',
      [second.apiKeyId]: 'req-second',
    });
    expect(new Set(rows.map((row) => row.created_at)).size).toBe(1);
  });

  it('refuse an event emitted once the work has returned, rather than drop it', async () => {
    const outbox = new Outbox(
      dataSource,
      schema,
      'lag-test',
      new InProcessBus(logger),
      logger,
      new Metrics('lag-test', { defaultMetrics: false }),
    );
    let late: Promise<string> | undefined;
    await outbox.transaction(async (tx) => {
      late = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => tx.emit('auth.apikey.revoked', revoked(), meta))
        .then(
          () => 'recorded',
          (err: Error) => err.message,
        );
    });
    expect(await late).toMatch(/before its transaction's work returns/);
  });
});

describe('consumer lag gauges', () => {
  const event = () => cloudEvent('lag-test', 'auth.apikey.revoked', revoked(), { orgid: 'org_test', livemode: false });

  it("show each running durable consumer's events not yet delivered and not yet acknowledged, and drop it once stopped", async () => {
    const metrics = new Metrics('lag-test', { defaultMetrics: false });
    const inner = new InProcessBus(logger);
    const bus = instrumentBus(inner, metrics, logger);
    const consumer = ['consumer="lag-consumer"'];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = await bus.consume({ durable: 'lag-consumer', types: ['auth.apikey.revoked'] }, () => held);
    await bus.publish(event());
    await bus.publish(event());
    await new Promise((resolve) => setImmediate(resolve));
    expect([
      await sample(metrics, 'event_consumer_pending_messages', consumer),
      await sample(metrics, 'event_consumer_unacknowledged_messages', consumer),
    ]).toEqual([0, 2]);
    release();
    await holding.stop();
    expect(await metrics.render()).not.toContain('lag-consumer');
    await inner.close();
  });

  it('leave the series out, without failing or stalling the scrape, when the bus does not answer', async () => {
    const metrics = new Metrics('lag-test', { defaultMetrics: false });
    const inner = new InProcessBus(logger);
    const silent = Object.assign(Object.create(inner) as InProcessBus, { backlog: () => new Promise<never>(() => undefined) });
    const bus = instrumentBus(silent, metrics, logger);
    const subscription = await bus.consume({ durable: 'silent-consumer', types: ['auth.apikey.revoked'] }, async () => undefined);
    const started = Date.now();
    const text = await metrics.render();
    expect(Date.now() - started).toBeLessThan(3000);
    expect(text).toContain('# TYPE event_consumer_pending_messages gauge');
    expect(text).not.toContain('silent-consumer');
    await subscription.stop();
    await inner.close();
  });
});
