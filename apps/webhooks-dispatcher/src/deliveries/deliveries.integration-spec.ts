import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { cloudEvent, type DeliveryView, type Principal, type SignupView } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, eventually, type Receiver, signupViewData, startReceiver, type TestStack, verifyWebhook } from '#libs/testing';
import { webhooksDispatcherApp } from '../index.js';
import { caller, MISSHAPEN_CURSORS, problemOf } from '../testing/webhook-testing.js';
import { type AttemptRecord, type ClaimedAttempt, DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryWorker } from './delivery-worker.js';

const SCHEDULE = ['100ms', '100ms', '100ms'];
/** RFC 9562 version 7, variant 10. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PAUSE_AFTER = 6;

/** Appends `name` to `log` at every call of the object's method, which still runs as ever; returns the undo. */
function logCalls<T extends object, K extends keyof T>(log: string[], target: T, method: K, name: string): () => void {
  const original = target[method] as (...args: unknown[]) => unknown;
  target[method] = ((...args: unknown[]) => {
    log.push(name);
    return original.apply(target, args);
  }) as T[K];
  return () => {
    target[method] = original as T[K];
  };
}

function signup(principal: Principal, title = 'Potluck'): SignupView {
  const now = new Date().toISOString();
  return signupViewData(principal.organizationId, {
    slug: 'potluck-abc123',
    title,
    status: 'draft',
    eventDate: now,
    publicUrl: 'https://example.test/s/potluck',
    livemode: principal.livemode,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
  });
}

describe('webhook deliveries', () => {
  let stack: TestStack;
  let app: RunningApp;
  let db: DataSource;
  let hooks: Receiver;
  let paths = 0;

  beforeAll(async () => {
    stack = await createTestStack('webhook_deliveries', {
      env: {
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_TIMEOUT_MS: '2000',
        WEBHOOK_RETRY_SCHEDULE: SCHEDULE.join(','),
        WEBHOOK_PAUSE_AFTER: String(PAUSE_AFTER),
        WEBHOOK_POLL_MS: '50',
      },
    });
    app = await stack.boot(webhooksDispatcherApp);
    db = app.context.dataSource!;
    hooks = await startReceiver();
  });

  afterAll(async () => {
    await stack.close();
    await hooks.close();
  });

  async function endpoint(principal: Principal, input: { eventTypes?: string[] } = {}) {
    const path = `/endpoint-${++paths}`;
    const created = await stack.bus.request('webhooks.create', { principal, input: { url: hooks.url(path), ...input } });
    return { ...created, path, received: () => hooks.received.filter((r) => r.path === path) };
  }

  const emit = async (principal: Principal, type: 'signup.created' | 'signup.published' = 'signup.created') => {
    const event = cloudEvent('signups-service', type, signup(principal), { orgid: principal.organizationId, livemode: principal.livemode });
    await stack.bus.publish(event);
    return event;
  };

  const deliveries = (principal: Principal, id: string) =>
    stack.bus.request('webhooks.deliveries.list', { principal, id, query: {} }).then((p) => p.data);
  const settled = (principal: Principal, id: string, status: DeliveryView['status']) =>
    eventually(async () => {
      const [latest] = await deliveries(principal, id);
      expect(latest?.status).toBe(status);
      return latest!;
    }, 10_000);

  /** The attempt a worker would hold on a delivery under `claimId` (record reads only the ids). */
  const claimOn = (delivery: { id: string; claimId: string }, target: { endpoint: { id: string; url: string } }): ClaimedAttempt => ({
    id: delivery.id,
    claimId: delivery.claimId,
    eventId: crypto.randomUUID(),
    payload: '{}',
    attempt: 1,
    endpointId: target.endpoint.id,
    url: target.endpoint.url,
    sealedSecret: '',
    sealedPreviousSecret: null,
    previousSecretExpiresAt: null,
  });

  /** Pending deliveries to an endpoint that a worker holds right now (due in an hour, so none is claimed again). */
  const heldDeliveries = async (endpointId: string, count: number): Promise<{ id: string; claimId: string }[]> =>
    db.query(
      `INSERT INTO "webhooks"."deliveries" (id, endpoint_id, event_id, event_type, payload, status, attempt_count, next_attempt_at, locked_until, claim_id)
       SELECT gen_random_uuid(), $1, gen_random_uuid()::text, 'signup.created', '{}', 'pending', 1, now() + interval '1 hour', now() + interval '1 minute', gen_random_uuid()
       FROM generate_series(1, $2)
       RETURNING id, claim_id AS "claimId"`,
      [endpointId, count],
    );

  /** webhook_delivery_attempts_total by outcome, from the app's /metrics. */
  const attemptsByOutcome = async (): Promise<Record<string, number>> => {
    const text = await (await fetch(`${app.url}/metrics`)).text();
    const lines = text.matchAll(/^webhook_delivery_attempts_total\{.*outcome="(\w+)".*\} (\S+)$/gm);
    return Object.fromEntries([...lines].map(([, outcome, count]) => [outcome, Number(count)]));
  };

  // These two come first: no attempt of another test may be in flight, as each ends with a kick.
  it('wakes the worker once an event created a pending delivery, before its attempt', async () => {
    const log: string[] = [];
    const undo = [
      logCalls(log, app.app.get(DeliveryWorker), 'kick', 'kick'),
      logCalls(log, app.app.get(DeliveriesRepository), 'record', 'record'),
    ];
    try {
      const principal = caller();
      const target = await endpoint(principal);
      await emit(principal);
      await settled(principal, target.endpoint.id, 'succeeded');
      expect(log.slice(0, 2)).toEqual(['kick', 'record']);
    } finally {
      for (const restore of undo) restore();
    }
  });

  it('does not wake the worker for an event no endpoint receives', async () => {
    const log: string[] = [];
    const restore = logCalls(log, app.app.get(DeliveryWorker), 'kick', 'kick');
    try {
      const event = await emit(caller());
      await eventually(async () => {
        const applied = await db.query(
          `SELECT 1 FROM "webhooks"."processed_events" WHERE consumer = 'webhooks-fan-out' AND event_id = $1`,
          [event.id],
        );
        expect(applied).toHaveLength(1);
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(log).toEqual([]);
    } finally {
      restore();
    }
  });

  it('delivers an event to every matching endpoint of its organization and mode, signed, with the event id as webhook-id', async () => {
    const principal = caller();
    const all = await endpoint(principal);
    const created = await endpoint(principal, { eventTypes: ['signup.created'] });
    const other = await endpoint(principal, { eventTypes: ['participant.registered'] });
    const otherMode = await endpoint({ ...principal, livemode: true }, {});
    const otherOrg = await endpoint(caller());
    const event = await emit(principal);

    for (const target of [all, created]) {
      const delivery = await settled(principal, target.endpoint.id, 'succeeded');
      expect(delivery).toMatchObject({
        eventId: event.id,
        eventType: 'signup.created',
        attemptCount: 1,
        lastResponseStatus: 200,
        errorMessage: null,
        nextAttemptAt: null,
      });
      const [message] = target.received();
      expect(message!.headers['webhook-id']).toBe(event.id);
      expect(verifyWebhook(target.signingSecret, message!)).toEqual({
        type: 'signup.created',
        timestamp: event.time,
        data: { ...event.data, organizationId: principal.organizationId, livemode: false },
      });
    }
    expect(await stack.bus.request('webhooks.get', { principal, id: all.endpoint.id })).toMatchObject({
      lastSuccessAt: expect.any(String),
      consecutiveFailures: 0,
    });
    for (const target of [other, otherMode, otherOrg]) expect(target.received()).toEqual([]);
  });

  it('gives each delivery of an event its own UUID v7 id, stamped with the time of the fan-out', async () => {
    const principal = caller();
    const targets = [await endpoint(principal), await endpoint(principal), await endpoint(principal)];
    const before = Date.now();
    await emit(principal);
    const made = await Promise.all(targets.map((target) => settled(principal, target.endpoint.id, 'succeeded')));
    const after = Date.now();
    expect(new Set(made.map((delivery) => delivery.id)).size).toBe(3);
    for (const { id } of made) {
      expect(id).toMatch(UUID_V7);
      const millis = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
      expect(millis).toBeGreaterThanOrEqual(before);
      expect(millis).toBeLessThanOrEqual(after);
    }
  });

  it('delivers one event once per endpoint, even when it is published twice', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    const event = await emit(principal);
    await stack.bus.publish(event);
    await settled(principal, target.endpoint.id, 'succeeded');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.received()).toHaveLength(1);
    expect(await deliveries(principal, target.endpoint.id)).toHaveLength(1);
  });

  it('retries on the schedule with the same webhook-id until a 2xx', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    hooks.answer(target.path, { status: 500 }, { status: 502 }, { status: 200 });
    const event = await emit(principal);
    const delivery = await settled(principal, target.endpoint.id, 'succeeded');
    expect(delivery).toMatchObject({ attemptCount: 3, lastResponseStatus: 200, deliveredAt: expect.any(String) });
    const received = target.received();
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id, event.id]);
    for (const message of received) expect(verifyWebhook(target.signingSecret, message)).toMatchObject({ type: 'signup.created' });
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(80);
    expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
      consecutiveFailures: 0,
      lastFailureAt: expect.any(String),
      lastSuccessAt: expect.any(String),
      paused: false,
    });
  });

  it('fails after the last scheduled retry, counting every failed attempt on the endpoint', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    hooks.answer(target.path, { status: 500 });
    await emit(principal);
    const delivery = await settled(principal, target.endpoint.id, 'failed');
    expect(delivery).toMatchObject({
      attemptCount: SCHEDULE.length + 1,
      lastResponseStatus: 500,
      errorMessage: 'HTTP 500',
      nextAttemptAt: null,
    });
    expect(target.received()).toHaveLength(SCHEDULE.length + 1);
    expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
      consecutiveFailures: 4,
      paused: false,
    });
  });

  it('honours Retry-After on a 503', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    hooks.answer(target.path, { status: 503, headers: { 'retry-after': '1' } }, { status: 200 });
    await emit(principal);
    await settled(principal, target.endpoint.id, 'succeeded');
    const [first, second] = target.received();
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
  });

  it('pauses an endpoint at once on 410 Gone and records later events as skipped', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    hooks.answer(target.path, { status: 410 });
    await emit(principal);
    await settled(principal, target.endpoint.id, 'failed');
    expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
      paused: true,
      pausedReason: 'gone',
    });
    await emit(principal, 'signup.published');
    const skipped = await settled(principal, target.endpoint.id, 'skipped');
    expect(skipped).toMatchObject({ eventType: 'signup.published', attemptCount: 0 });
    expect(target.received()).toHaveLength(1);
  });

  it('pauses after WEBHOOK_PAUSE_AFTER consecutive failed attempts; resume lets pending retries go on but sends no skipped event, a replay does', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    hooks.answer(target.path, { status: 500 });
    await emit(principal);
    await emit(principal, 'signup.published');
    await eventually(async () => {
      expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
        paused: true,
        pausedReason: 'consecutive_failures',
        consecutiveFailures: 6,
      });
    }, 10_000);
    await emit(principal);
    await settled(principal, target.endpoint.id, 'skipped');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.received()).toHaveLength(6);

    const whilePaused = await deliveries(principal, target.endpoint.id);
    expect(whilePaused.map((d) => d.status).sort()).toEqual(['pending', 'pending', 'skipped']);

    hooks.answer(target.path, { status: 200 });
    await stack.bus.request('webhooks.resume', { principal, id: target.endpoint.id });
    const afterResume = await eventually(async () => {
      const all = await deliveries(principal, target.endpoint.id);
      expect(all.map((d) => d.status).sort()).toEqual(['skipped', 'succeeded', 'succeeded']);
      return all;
    }, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.received()).toHaveLength(8);

    const skipped = afterResume.find((d) => d.status === 'skipped')!;
    const replayed = await stack.bus.request('webhooks.deliveries.replay', { principal, id: skipped.id });
    expect(replayed).toMatchObject({ status: 'pending', attemptCount: 0, errorMessage: null });
    await eventually(async () => {
      expect((await deliveries(principal, target.endpoint.id)).find((d) => d.id === skipped.id)).toMatchObject({
        status: 'succeeded',
        attemptCount: 1,
      });
    }, 10_000);
    expect(target.received()).toHaveLength(9);
  });

  it('records nothing for an attempt whose claim is stale', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    const [held] = await heldDeliveries(target.endpoint.id, 1);
    const gone: AttemptRecord = { status: 410, errorMessage: 'HTTP 410', next: { status: 'failed' }, gone: true };
    await app.app.get(DeliveriesRepository).record(claimOn({ id: held!.id, claimId: crypto.randomUUID() }, target), gone, PAUSE_AFTER);
    expect(await deliveries(principal, target.endpoint.id)).toMatchObject([
      { id: held!.id, status: 'pending', lastResponseStatus: null, errorMessage: null },
    ]);
    expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
      paused: false,
      consecutiveFailures: 0,
      lastFailureAt: null,
    });

    await app.app.get(DeliveriesRepository).record(claimOn(held!, target), gone, PAUSE_AFTER);
    expect(await deliveries(principal, target.endpoint.id)).toMatchObject([
      { status: 'failed', lastResponseStatus: 410, errorMessage: 'HTTP 410', nextAttemptAt: null },
    ]);
    expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
      paused: true,
      pausedReason: 'gone',
      consecutiveFailures: 1,
      lastFailureAt: expect.any(String),
    });
  });

  it("records the successes that come together in one statement, each only under its own claim, and ends their endpoints' runs of failures", async () => {
    const principal = caller();
    const [a, b] = [await endpoint(principal), await endpoint(principal)];
    const [heldA, heldB] = [await heldDeliveries(a.endpoint.id, 5), await heldDeliveries(b.endpoint.id, 5)];
    await db.query(`UPDATE "webhooks"."endpoints" SET consecutive_failures = 3, failing_since = now() WHERE id = ANY($1::uuid[])`, [
      [a.endpoint.id, b.endpoint.id],
    ]);
    const ok: AttemptRecord = { status: 200, errorMessage: null, next: { status: 'succeeded' } };
    const repository = app.app.get(DeliveriesRepository);
    const stale = { id: heldB[4]!.id, claimId: crypto.randomUUID() };
    await Promise.all([
      ...heldA.map((delivery) => repository.record(claimOn(delivery, a), ok, PAUSE_AFTER)),
      ...heldB.slice(0, 4).map((delivery) => repository.record(claimOn(delivery, b), ok, PAUSE_AFTER)),
      repository.record(claimOn(stale, b), ok, PAUSE_AFTER),
    ]);

    const rows = (await db.query(
      `SELECT id, status, last_response_status, delivered_at::text AS delivered_at FROM "webhooks"."deliveries" WHERE id = ANY($1::uuid[])`,
      [[...heldA, ...heldB].map((d) => d.id)],
    )) as { id: string; status: string; last_response_status: number | null; delivered_at: string | null }[];
    const recorded = rows.filter((row) => row.id !== stale.id);
    expect(recorded.map((row) => [row.status, row.last_response_status])).toEqual(Array(9).fill(['succeeded', 200]));
    expect(rows.find((row) => row.id === stale.id)).toMatchObject({ status: 'pending', last_response_status: null, delivered_at: null });
    // One statement's rows share its transaction's now() (to the microsecond): fewer times than successes means they went together.
    expect(new Set(recorded.map((row) => row.delivered_at)).size).toBeLessThan(9);
    for (const target of [a, b]) {
      expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
        consecutiveFailures: 0,
        lastSuccessAt: expect.any(String),
      });
    }
  });

  it('counts each of many failed attempts of one endpoint recorded at once, pausing it at WEBHOOK_PAUSE_AFTER', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    const held = await heldDeliveries(target.endpoint.id, PAUSE_AFTER + 2);
    const retry: AttemptRecord = {
      status: 500,
      errorMessage: 'HTTP 500',
      next: { status: 'pending', at: new Date(Date.now() + 3_600_000) },
    };
    const repository = app.app.get(DeliveriesRepository);
    await Promise.all(held.map((delivery) => repository.record(claimOn(delivery, target), retry, PAUSE_AFTER)));
    expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
      paused: true,
      pausedReason: 'consecutive_failures',
      pausedAt: expect.any(String),
      consecutiveFailures: PAUSE_AFTER + 2,
    });
  });

  it('starts the five-day clock afresh on resume', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    await db.query(
      `UPDATE "webhooks"."endpoints" SET failing_since = now() - interval '6 days', paused = true, paused_reason = 'consecutive_failures', paused_at = now()
       WHERE id = $1`,
      [target.endpoint.id],
    );
    await stack.bus.request('webhooks.resume', { principal, id: target.endpoint.id });
    hooks.answer(target.path, { status: 500 }, { status: 200 });
    await emit(principal);
    await settled(principal, target.endpoint.id, 'succeeded');
    expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({ paused: false });
  });

  it('refuses to replay a delivery while an attempt of it is being sent', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    await emit(principal);
    const [delivery] = await eventually(async () => {
      const all = await deliveries(principal, target.endpoint.id);
      expect(all).toHaveLength(1);
      return all;
    });
    await db.query(
      `UPDATE "webhooks"."deliveries" SET status = 'pending', next_attempt_at = now() + interval '1 hour', locked_until = now() + interval '1 minute' WHERE id = $1`,
      [delivery!.id],
    );
    expect((await problemOf(stack.bus.request('webhooks.deliveries.replay', { principal, id: delivery!.id }))).code).toBe('conflict');
  });

  it('gives up on a delivery whose attempts keep dying mid-send, without sending it again', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    hooks.answer(target.path, { status: 500 });
    await emit(principal);
    const [delivery] = await eventually(async () => {
      const all = await deliveries(principal, target.endpoint.id);
      expect(all).toMatchObject([{ attemptCount: 1 }]);
      return all;
    });
    const sent = target.received().length;
    await db.query(
      `UPDATE "webhooks"."deliveries" SET status = 'pending', attempt_count = $2, next_attempt_at = now(), locked_until = NULL WHERE id = $1`,
      [delivery!.id, SCHEDULE.length + 1],
    );
    await settled(principal, target.endpoint.id, 'failed');
    expect((await deliveries(principal, target.endpoint.id))[0]).toMatchObject({
      errorMessage: 'abandoned: every scheduled attempt was interrupted',
    });
    expect(target.received()).toHaveLength(sent);
  });

  it('pauses an endpoint whose deliveries have all failed for five days', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    await db.query(`UPDATE "webhooks"."endpoints" SET failing_since = now() - interval '6 days', consecutive_failures = 1 WHERE id = $1`, [
      target.endpoint.id,
    ]);
    hooks.answer(target.path, { status: 500 });
    await emit(principal);
    await eventually(async () => {
      expect(await stack.bus.request('webhooks.get', { principal, id: target.endpoint.id })).toMatchObject({
        paused: true,
        pausedReason: 'consecutive_failures',
      });
    }, 10_000);
  });

  it('pages the history newest first, and hides it from other organizations', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    for (let i = 0; i < 3; i++) await emit(principal);
    await eventually(async () => expect(await deliveries(principal, target.endpoint.id)).toHaveLength(3), 10_000);
    const first = await stack.bus.request('webhooks.deliveries.list', { principal, id: target.endpoint.id, query: { limit: 2 } });
    const second = await stack.bus.request('webhooks.deliveries.list', {
      principal,
      id: target.endpoint.id,
      query: { limit: 2, cursor: first.nextCursor! },
    });
    expect([...first.data, ...second.data].map((d) => d.id)).toEqual((await deliveries(principal, target.endpoint.id)).map((d) => d.id));
    expect(second.nextCursor).toBeNull();
    const stranger = caller();
    expect(
      (await problemOf(stack.bus.request('webhooks.deliveries.list', { principal: stranger, id: target.endpoint.id, query: {} }))).code,
    ).toBe('not_found');
    expect((await problemOf(stack.bus.request('webhooks.deliveries.replay', { principal: stranger, id: first.data[0]!.id }))).code).toBe(
      'not_found',
    );
    const limit = await problemOf(
      stack.bus.request('webhooks.deliveries.list', { principal, id: target.endpoint.id, query: { limit: 201 } }),
    );
    expect(limit.code).toBe('validation_failed');
  });

  it.each(MISSHAPEN_CURSORS)(
    'refuses a well-formed history cursor holding %s as a 422 on cursor, before any query',
    async (_case, cursorOf) => {
      const principal = caller();
      const target = await endpoint(principal);
      const { organizationId, livemode } = principal;
      const cursor = cursorOf({ list: 'webhooks.deliveries.list', organizationId, livemode, parentId: target.endpoint.id });
      const problem = await problemOf(
        stack.bus.request('webhooks.deliveries.list', { principal, id: target.endpoint.id, query: { cursor } }),
      );
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
    },
  );

  it('deletes the history with the endpoint', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    await emit(principal);
    await settled(principal, target.endpoint.id, 'succeeded');
    await stack.bus.request('webhooks.delete', { principal, id: target.endpoint.id });
    const [{ count }] = await db.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM "webhooks"."deliveries" WHERE endpoint_id = $1`,
      [target.endpoint.id],
    );
    expect(count).toBe(0);
  });

  it('keeps room on every page of the deliveries, so that a claim rewrites its row on the same page without touching an index', async () => {
    const [{ options }] = (await db.query(
      `SELECT reloptions AS options FROM pg_class WHERE oid = '"webhooks"."deliveries"'::regclass`,
    )) as {
      options: string[] | null;
    }[];
    expect(options).toContain('fillfactor=60');
  });

  it('counts each attempt once by outcome in webhook_delivery_attempts_total', async () => {
    const principal = caller();
    const target = await endpoint(principal);
    hooks.answer(target.path, { status: 404 }, { status: 200 });
    const before = await attemptsByOutcome();
    await emit(principal);
    await settled(principal, target.endpoint.id, 'succeeded');
    await eventually(async () => {
      const after = await attemptsByOutcome();
      const added = (outcome: string) => (after[outcome] ?? 0) - (before[outcome] ?? 0);
      expect(Object.fromEntries(['delivered', 'http_4xx', 'http_5xx', 'no_response'].map((outcome) => [outcome, added(outcome)]))).toEqual({
        delivered: 1,
        http_4xx: 1,
        http_5xx: 0,
        no_response: 0,
      });
    });
  });
});
