import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { loadConfig, tracingSpec } from '#libs/config';
import { currentTraceId, inSpan, runWithRequestId, SpanKind, startTracing, type Tracing } from '#libs/observability';
import { busConformance } from './bus.conformance.js';
import type { BusLogger } from './envelope.js';
import { NatsBus } from './nats-bus.js';
import {
  authHandlers,
  deleteStream,
  eventually,
  natsTestTarget,
  principal,
  recordingLogger,
  Seen,
  testEvent,
  uniqueName,
} from './test-support.js';

const target = natsTestTarget();
const connectBus = (logger: BusLogger): Promise<NatsBus> =>
  NatsBus.connect({ ...target, name: 'bus-test', logger, defaultTimeoutMs: 2000 });

afterAll(() => deleteStream(target.url, target.streamName));

busConformance('NatsBus', connectBus);

/** The bus's own connection, to force a reconnect. */
function connectionOf(bus: NatsBus): NatsConnection {
  return (bus as unknown as { nc: NatsConnection }).nc;
}

describe('NatsBus on the wire', () => {
  let bus: NatsBus;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const revokedSubject = `${target.prefix}events.auth.apikey.revoked`;

  beforeAll(async () => {
    bus = await connectBus(recordingLogger());
    nc = await connect({ servers: target.url });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    await bus.close();
    await nc.close();
  });

  it('matches each of many concurrent requests to its own reply over one inbox', async () => {
    const served = await bus.serve(
      'auth',
      authHandlers(async ({ keyHash }) => principal(keyHash)),
    );
    try {
      const keys = Array.from({ length: 200 }, (_, n) => `key-${n}`);
      const answers = await Promise.all(keys.map((keyHash) => bus.request('auth.apikeys.verify', { keyHash })));
      expect(answers.map((answer) => answer.userId)).toEqual(keys.map((key) => principal(key).userId));
    } finally {
      await served.stop();
    }
  });

  it('tells a subject nobody serves (at once) from a reply that comes too late', async () => {
    const started = Date.now();
    await expect(bus.request('auth.apikeys.verify', { keyHash: 'k' })).rejects.toThrow('The auth service is not available.');
    expect(Date.now() - started).toBeLessThan(1000);
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const served = await bus.serve(
      'auth',
      authHandlers(async () => {
        await gate;
        return principal('late');
      }),
    );
    try {
      await expect(bus.request('auth.apikeys.verify', { keyHash: 'k' }, { timeoutMs: 100 })).rejects.toThrow(
        'The auth service did not answer within 100 ms.',
      );
    } finally {
      release();
      await served.stop();
    }
  });

  it('creates its stream on file storage with a 2-minute duplicate window and a 7-day max age', async () => {
    const { config } = await jsm.streams.info(target.streamName);
    expect(config).toMatchObject({
      subjects: [`${target.prefix}events.>`],
      storage: 'file',
      duplicate_window: 120e9,
      max_age: 7 * 24 * 3600e9,
    });
  });

  it('stores one message when the same event id is published twice', async () => {
    const before = (await jsm.streams.info(target.streamName)).state.messages;
    const event = testEvent();
    await bus.publish(event);
    await bus.publish(event);
    expect((await jsm.streams.info(target.streamName)).state.messages).toBe(before + 1);
  });

  it("stores the CloudEvent with ce-type, ce-id and the caller's request id as headers", async () => {
    const event = testEvent();
    await runWithRequestId('req-publish-1', () => bus.publish(event));
    const stored = await jsm.streams.getMessage(target.streamName, { last_by_subj: revokedSubject });
    expect(stored?.json()).toEqual(event);
    expect([stored?.header.get('ce-type'), stored?.header.get('ce-id'), stored?.header.get('x-request-id')]).toEqual([
      'auth.apikey.revoked',
      event.id,
      'req-publish-1',
    ]);
  });

  it('answers a malformed request with validation_failed', async () => {
    const served = await bus.serve(
      'auth',
      authHandlers(async () => {
        throw new Error('must not run');
      }),
    );
    const reply = await nc.request(`${target.prefix}auth.apikeys.verify`, '{not json', { timeout: 2000 });
    expect(reply.json()).toMatchObject({ ok: false, problem: { code: 'validation_failed', errors: [{ path: 'body' }] } });
    await served.stop();
  });

  it('shares requests between replicas serving the same owner', async () => {
    const replica = await connectBus(recordingLogger());
    try {
      const answered = new Seen();
      const served = await bus.serve(
        'auth',
        authHandlers(async () => (answered.add('first'), principal('first'))),
      );
      await replica.serve(
        'auth',
        authHandlers(async () => (answered.add('second'), principal('second'))),
      );
      await Promise.all(Array.from({ length: 40 }, () => bus.request('auth.apikeys.verify', { keyHash: 'k' })));
      expect(answered.ids).toHaveLength(40);
      expect([answered.count('first') > 0, answered.count('second') > 0]).toEqual([true, true]);
      await served.stop();
    } finally {
      await replica.close();
    }
  });

  it('keeps consuming and serving across a reconnect', async () => {
    const seen = new Seen();
    const consumed = await bus.consume({ durable: uniqueName('reconnect'), types: ['auth.apikey.revoked'] }, async (e) => seen.add(e.id));
    const served = await bus.serve(
      'auth',
      authHandlers(async () => principal('after-reconnect')),
    );
    const before = testEvent();
    await bus.publish(before);
    await eventually(() => expect(seen.count(before.id)).toBe(1));

    const connection = connectionOf(bus);
    const reconnected = (async () => {
      for await (const status of connection.status()) if (status.type === 'reconnect') return;
    })();
    await connection.reconnect();
    await reconnected;

    const after = testEvent();
    await bus.publish(after);
    await eventually(() => expect(seen.count(after.id)).toBe(1));
    await expect(bus.request('auth.apikeys.verify', { keyHash: 'k' })).resolves.toMatchObject({ userId: 'after-reconnect' });
    await consumed.stop();
    await served.stop();
  });
});

describe('NatsBus trace context', () => {
  let bus: NatsBus;
  let tracing: Tracing;
  const inRequest = <T>(work: () => Promise<T>) =>
    inSpan('caller', { kind: SpanKind.SERVER }, async () => ({ traceId: currentTraceId(), result: await work() }));

  beforeAll(async () => {
    tracing = startTracing('bus-test', loadConfig(tracingSpec, {}));
    bus = await connectBus(recordingLogger());
  });

  afterAll(async () => {
    await bus.close();
    await tracing.shutdown();
  });

  it("runs a request's handler in the caller's trace", async () => {
    let handlerTrace: string | undefined;
    const served = await bus.serve(
      'auth',
      authHandlers(async () => ((handlerTrace = currentTraceId()), principal('traced'))),
    );
    const { traceId } = await inRequest(() => bus.request('auth.apikeys.verify', { keyHash: 'k' }));
    await served.stop();
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(handlerTrace).toBe(traceId);
  });

  it("runs durable consumers and broadcast listeners of an event in its publisher's trace", async () => {
    const traces = new Map<string, string | undefined>();
    const consumed = await bus.consume(
      { durable: uniqueName('traced'), types: ['auth.apikey.revoked'] },
      async () => void traces.set('durable', currentTraceId()),
    );
    const listened = await bus.broadcast(['auth.apikey.revoked'], async () => void traces.set('broadcast', currentTraceId()));
    const { traceId } = await inRequest(() => bus.publish(testEvent()));
    await eventually(() => expect(Object.fromEntries(traces)).toEqual({ durable: traceId, broadcast: traceId }));
    await Promise.all([consumed.stop(), listened.stop()]);
  });

  it("reports a durable consumer's backlog: events not yet delivered, then delivered and not yet acknowledged", async () => {
    const durable = uniqueName('backlog');
    const idle = await bus.consume({ durable, types: ['auth.apikey.revoked'] }, async () => undefined);
    await idle.stop();
    const { pending: before } = await bus.backlog(durable);
    for (let i = 0; i < 3; i++) await bus.publish(testEvent());
    expect(await bus.backlog(durable)).toEqual({ pending: before + 3, unacknowledged: 0 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = await bus.consume({ durable, types: ['auth.apikey.revoked'] }, () => held);
    await eventually(() => expect(bus.backlog(durable)).resolves.toEqual({ pending: 0, unacknowledged: before + 3 }));
    release();
    await eventually(() => expect(bus.backlog(durable)).resolves.toEqual({ pending: 0, unacknowledged: 0 }));
    await holding.stop();
  });
});
