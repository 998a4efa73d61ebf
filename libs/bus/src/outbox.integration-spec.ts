import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { DataSource, EntityManager } from 'typeorm';
import { loadConfig, tracingSpec } from '#libs/config';
import type { CloudEvent } from '#libs/contracts';
import { currentRequestId, currentTraceId, inSpan, runWithRequestId, SpanKind, startTracing } from '#libs/observability';
import { createDataSource, createTestDatabase, type TestDatabase } from '#libs/persistence';
import type { Bus } from './bus.js';
import { consumeOnce } from './durable-consumer.js';
import { InProcessBus } from './in-process-bus.js';
import { NatsBus } from './nats-bus.js';
import { caused, enqueueEvents, outboxMigrationSql, outboxTraceContextSql } from './outbox.js';
import { OutboxRelay } from './outbox-relay.js';
import { deleteStream, eventually, natsTestTarget, recordingLogger, Seen, SpyBus, testEvent, uniqueName } from './test-support.js';

const schema = 'relay_test';
const types = ['auth.apikey.revoked'] as const;
const target = natsTestTarget();
const logger = recordingLogger();

let db: TestDatabase;
let dataSource: DataSource;
let bus: NatsBus;
let nc: NatsConnection;
const running: { stop(): Promise<void> }[] = [];

beforeAll(async () => {
  db = await createTestDatabase('bus_outbox');
  dataSource = createDataSource({ schema, entities: [], migrations: [] }, { url: db.url });
  await dataSource.initialize();
  await dataSource.query(`CREATE SCHEMA "${schema}"`);
  for (const sql of [...outboxMigrationSql(schema).up, ...outboxTraceContextSql(schema).up]) await dataSource.query(sql);
  await dataSource.query(`CREATE TABLE "${schema}".applied (consumer text NOT NULL, event_id uuid NOT NULL)`);
  bus = await NatsBus.connect({ ...target, name: 'outbox-test', logger, defaultTimeoutMs: 2000 });
  nc = await connect({ servers: target.url });
});

afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});

afterAll(async () => {
  await bus.close();
  await nc.close();
  await dataSource.destroy();
  await db.drop();
  await deleteStream(target.url, target.streamName);
});

function startRelay(relayBus: Bus, batchSize?: number): OutboxRelay {
  const relay = new OutboxRelay({ dataSource, schema, bus: relayBus, logger, batchSize });
  relay.start();
  running.push(relay);
  return relay;
}

/** consumeOnce with a handler that writes an `applied` row in the event's transaction. */
async function applyOnce(consumeBus: Bus, consumer = uniqueName('applier')): Promise<{ consumer: string; runs: Seen }> {
  const runs = new Seen();
  const sub = await consumeOnce({ bus: consumeBus, dataSource, schema, consumer, types, logger }, async (manager, event) => {
    runs.add(event.id);
    await manager.query(`INSERT INTO "${schema}".applied (consumer, event_id) VALUES ($1, $2)`, [consumer, event.id]);
  });
  running.push(sub);
  return { consumer, runs };
}

async function appliedRows(consumer: string, eventId: string): Promise<number> {
  const rows: unknown[] = await dataSource.query(`SELECT 1 FROM "${schema}".applied WHERE consumer = $1 AND event_id = $2`, [
    consumer,
    eventId,
  ]);
  return rows.length;
}

async function commit(events: readonly CloudEvent[]): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await enqueueEvents(manager, schema, events.map(caused));
  });
}

async function unpublished(ids: readonly string[]): Promise<number> {
  const rows: unknown[] = await dataSource.query(`SELECT 1 FROM "${schema}".outbox WHERE id = ANY($1::uuid[]) AND published_at IS NULL`, [
    ids,
  ]);
  return rows.length;
}

describe('outbox, relay and consumeOnce', () => {
  it('applies events enqueued in a committed transaction exactly once', async () => {
    const { consumer, runs } = await applyOnce(bus);
    const relay = startRelay(bus);
    const events = Array.from({ length: 5 }, testEvent);
    await commit(events);
    relay.kick();
    await eventually(async () => {
      for (const { id } of events) expect([runs.count(id), await appliedRows(consumer, id)]).toEqual([1, 1]);
    });
    expect(await unpublished(events.map((e) => e.id))).toBe(0);
  });

  it('publishes nothing from a rolled-back transaction', async () => {
    const { runs } = await applyOnce(bus);
    const relay = startRelay(bus);
    const [rolledBack, marker] = [testEvent(), testEvent()];
    await expect(
      dataSource.transaction(async (manager) => {
        await enqueueEvents(manager, schema, [caused(rolledBack)]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await commit([marker]);
    relay.kick();
    await eventually(() => expect(runs.count(marker.id)).toBe(1));
    expect(runs.count(rolledBack.id)).toBe(0);
    expect(await dataSource.query(`SELECT 1 FROM "${schema}".outbox WHERE id = $1`, [rolledBack.id])).toHaveLength(0);
  });

  it('publishes, when stopped, the rows committed since its last round', async () => {
    const relay = new OutboxRelay({ dataSource, schema, bus, logger, pollMs: 60_000 });
    relay.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const events = Array.from({ length: 3 }, testEvent);
    await commit(events);
    expect(await unpublished(events.map((e) => e.id))).toBe(3);
    await relay.stop();
    expect(await unpublished(events.map((e) => e.id))).toBe(0);
  });

  it('refuses to enqueue outside a transaction', async () => {
    await expect(enqueueEvents(dataSource.manager, schema, [caused(testEvent())])).rejects.toThrow(/inside the transaction/);
  });

  it('publishes 200 rows from two relays on one table with no duplicate reaching the handler', async () => {
    const spy = new SpyBus(bus);
    const seen = new Seen();
    running.push(await bus.consume({ durable: uniqueName('raw'), types }, async (e) => seen.add(e.id)));
    const relays = [startRelay(spy, 20), startRelay(spy, 20)];
    const events = Array.from({ length: 200 }, testEvent);
    for (let i = 0; i < events.length; i += 25) {
      await commit(events.slice(i, i + 25));
      for (const relay of relays) relay.kick();
    }
    await eventually(() => {
      for (const { id } of events) expect(seen.count(id)).toBe(1);
    }, 15_000);
    expect(events.filter(({ id }) => spy.published.count(id) !== 1)).toEqual([]);
  });

  it('applies an event delivered twice once', async () => {
    const spy = new SpyBus(bus);
    const { consumer, runs } = await applyOnce(spy);
    const event = testEvent();
    const js = jetstream(nc);
    for (let i = 0; i < 2; i++) await js.publish(`${target.prefix}events.${event.type}`, JSON.stringify(event));
    await eventually(() => expect(spy.handled.count(event.id)).toBe(2));
    expect([runs.count(event.id), await appliedRows(consumer, event.id)]).toEqual([1, 1]);
  });

  it('rolls back the processed mark with a failed handler, so the redelivery applies the event', async () => {
    const consumer = uniqueName('failing');
    const attempts = new Seen();
    running.push(
      await consumeOnce({ bus, dataSource, schema, consumer, types, logger }, async (manager, event) => {
        attempts.add(event.id);
        await manager.query(`INSERT INTO "${schema}".applied (consumer, event_id) VALUES ($1, $2)`, [consumer, event.id]);
        if (attempts.count(event.id) === 1) throw new Error('first attempt fails');
      }),
    );
    const event = testEvent();
    await bus.publish(event);
    await eventually(async () => expect([attempts.count(event.id), await appliedRows(consumer, event.id)]).toEqual([2, 1]), 15_000);
  });
});

describe('consumeOnce under a backlog', () => {
  /** Starts a consumer and stops it, so that the events published next wait for it as a backlog. */
  async function backlogFor(events: CloudEvent[], handler: (manager: EntityManager, event: CloudEvent) => Promise<void>): Promise<string> {
    const consumer = uniqueName('backlog');
    await (await consumeOnce({ bus, dataSource, schema, consumer, types, logger }, handler)).stop();
    for (const event of events) await bus.publish(event);
    running.push(await consumeOnce({ bus, dataSource, schema, consumer, types, logger }, handler));
    return consumer;
  }

  async function transactionsOf(consumer: string, ids: string[]): Promise<number> {
    const [{ count }] = (await dataSource.query(
      `SELECT count(DISTINCT processed_at)::int AS count FROM "${schema}".processed_events WHERE consumer = $1 AND event_id = ANY($2::uuid[])`,
      [consumer, ids],
    )) as { count: number }[];
    return count;
  }

  it('applies a burst in far fewer transactions than events, each event once and in the order it arrived', async () => {
    const events = Array.from({ length: 100 }, testEvent);
    const ids = events.map((e) => e.id);
    const order: string[] = [];
    const consumer = await backlogFor(events, async (manager, event) => {
      order.push(event.id);
      await manager.query(`INSERT INTO "${schema}".applied (consumer, event_id) VALUES ($1, $2)`, [consumer, event.id]);
    });
    await eventually(async () => {
      for (const id of ids) expect(await appliedRows(consumer, id)).toBe(1);
    }, 15_000);
    expect(order.filter((id) => ids.includes(id))).toEqual(ids);
    expect(await transactionsOf(consumer, ids)).toBeLessThan(events.length / 4);
  });

  it('applies the rest of a batch once when one event fails, and redelivers only that one', async () => {
    const events = Array.from({ length: 30 }, testEvent);
    const failing = events[10]!;
    const attempts = new Seen();
    const consumer = await backlogFor(events, async (manager, event) => {
      attempts.add(event.id);
      await manager.query(`INSERT INTO "${schema}".applied (consumer, event_id) VALUES ($1, $2)`, [consumer, event.id]);
      if (event.id === failing.id && attempts.count(event.id) <= 2) throw new Error('fails in its batch and alone');
    });
    await eventually(async () => {
      for (const { id } of events) expect(await appliedRows(consumer, id)).toBe(1);
    }, 15_000);
    expect(attempts.count(failing.id)).toBe(3);
    const ours = new Set(events.map((e) => e.id));
    const redelivered = logger.entries
      .filter((e) => e.msg === 'event handler failed; redelivering')
      .map((e) => (e.obj as { eventId: string }).eventId);
    expect(redelivered.filter((id) => ours.has(id))).toEqual([failing.id]);
    expect(logger.entries).toContainEqual(
      expect.objectContaining({ msg: 'event batch failed; applying its events one by one', obj: expect.objectContaining({ consumer }) }),
    );
  });
});

describe('outbox relay on the in-process bus', () => {
  it('keeps rows while the bus is down and publishes them once it is back', async () => {
    const inProcess = new InProcessBus(logger);
    const relayBus = new SpyBus(inProcess);
    const { consumer, runs } = await applyOnce(inProcess);
    relayBus.down = true;
    const relay = startRelay(relayBus);
    const event = testEvent();
    await commit([event]);
    relay.kick();
    await eventually(() => expect(logger.entries).toContainEqual(expect.objectContaining({ msg: 'outbox publish failed; will retry' })));
    expect(await unpublished([event.id])).toBe(1);
    relayBus.down = false;
    relay.kick();
    await eventually(async () => expect([runs.count(event.id), await appliedRows(consumer, event.id)]).toEqual([1, 1]));
    expect(await unpublished([event.id])).toBe(0);
  });
});

describe('outbox relay and trace context', () => {
  it('publishes each event under the request id and in the trace of the request that committed it', async () => {
    const tracing = startTracing('outbox-test', loadConfig(tracingSpec, {}));
    try {
      const seen = new Map<string, { traceId?: string; requestId?: string }>();
      running.push(
        await bus.consume(
          { durable: uniqueName('traced'), types },
          async (event) => void seen.set(event.id, { traceId: currentTraceId(), requestId: currentRequestId() }),
        ),
      );
      const event = testEvent();
      const traceId = await runWithRequestId('req-outbox-trace', () =>
        inSpan('request', { kind: SpanKind.SERVER }, async () => {
          await commit([event]);
          return currentTraceId();
        }),
      );
      startRelay(bus);
      await eventually(() => expect(seen.get(event.id)).toEqual({ traceId, requestId: 'req-outbox-trace' }));
    } finally {
      await tracing.shutdown();
    }
  });
});
