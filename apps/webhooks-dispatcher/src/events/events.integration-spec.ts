import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type CloudEvent, cloudEvent, type CursorList, encodeCursor, type EventLogQuery, newId, type Principal } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, eventually, type Receiver, startReceiver, type TestStack } from '#libs/testing';
import { webhookPayload } from '../deliveries/fan-out.js';
import { webhooksDispatcherApp } from '../index.js';
import { caller, problemOf } from '../testing/webhook-testing.js';
import { EventsRepository } from './events.repository.js';
import { LogFrontier } from './log-frontier.js';

const DAY_MS = 24 * 3600 * 1000;
const RETENTION_HOURS = 720;

/** A signup.* or participant.* event of the principal's organization and mode, made `ageMs` ago. */
function eventOf(principal: Principal, type: 'signup.created' | 'signup.deleted' | 'participant.canceled' = 'signup.created', ageMs = 0) {
  const data = { id: newId(), title: `Signup ${type}` } as unknown as CloudEvent<'signup.created'>['data'];
  const event = cloudEvent('signups-service', type as 'signup.created', data, {
    orgid: principal.organizationId,
    livemode: principal.livemode,
  });
  return { ...event, time: new Date(Date.now() - ageMs).toISOString() };
}

/** A UUID v7 made `ageMs` ago. */
function v7Made(ageMs: number): string {
  const hex = (Date.now() - ageMs).toString(16).padStart(12, '0');
  const tail = newId().replaceAll('-', '').slice(12);
  const all = hex + tail;
  return `${all.slice(0, 8)}-${all.slice(8, 12)}-${all.slice(12, 16)}-${all.slice(16, 20)}-${all.slice(20)}`;
}

const listOf = ({ organizationId, livemode }: Principal, filters: CursorList['filters'] = {}): CursorList => ({
  list: 'webhooks.events.list',
  organizationId,
  livemode,
  filters,
});

describe('the event log', () => {
  let stack: TestStack;
  let app: RunningApp;
  let db: DataSource;
  let hooks: Receiver;

  beforeAll(async () => {
    stack = await createTestStack('webhook_event_log', {
      env: { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_POLL_MS: '50' },
    });
    app = await stack.boot(webhooksDispatcherApp);
    db = app.context.dataSource!;
    hooks = await startReceiver();
  });

  afterAll(async () => {
    await stack.close();
    await hooks.close();
  });

  const list = (principal: Principal, query: EventLogQuery = {}) => stack.bus.request('webhooks.events.list', { principal, query });
  const recorded = async (id: string) =>
    (await db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM "webhooks"."events" WHERE id = $1`, [id]))[0]!.n;

  /**
   * Publishes the event and waits until the log lists it (so events go in one at a time, in
   * order). Listed, not only recorded: a transaction of another test on the same server that
   * began before its own holds it back a moment (the settled rule).
   */
  async function emit<E extends CloudEvent>(event: E): Promise<E> {
    await stack.bus.publish(event);
    await eventually(async () => {
      const principal = caller({ organizationId: event.orgid, livemode: event.livemode });
      expect((await list(principal, { limit: 100 })).data.map((entry) => entry.id)).toContain(event.id);
    }, 10_000);
    return event;
  }

  /**
   * Every page of a listing, following nextCursor: with the first query's `after` and `order`
   * repeated next to it (as a generic pager resends the query), or dropped (the cursor carries them).
   */
  async function allPages(principal: Principal, query: EventLogQuery, repeat = false): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await list(principal, { ...query, cursor });
      pages.push(page.data.map((entry) => entry.id));
      cursor = page.nextCursor ?? undefined;
      if (cursor && !repeat) {
        delete query.after;
        delete query.order;
      }
    } while (cursor);
    return pages;
  }

  it('lists each event as its webhook body with its id, newest first, whether or not an endpoint matches', async () => {
    const principal = caller();
    const first = await emit(eventOf(principal));
    const second = await emit(eventOf(principal, 'signup.deleted'));
    const page = await list(principal);
    expect(page).toEqual({
      data: [
        { id: second.id, ...(JSON.parse(webhookPayload(second)) as object) },
        { id: first.id, ...(JSON.parse(webhookPayload(first)) as object) },
      ],
      nextCursor: null,
    });
    expect(page.data[0]).toMatchObject({
      type: 'signup.deleted',
      timestamp: second.time,
      data: { organizationId: principal.organizationId, livemode: false },
    });
  });

  it('gives an event the id its deliveries carry as webhook-id', async () => {
    const principal = caller();
    const target = await stack.bus.request('webhooks.create', { principal, input: { url: hooks.url('/log-id') } });
    const event = await emit(eventOf(principal));
    const delivery = await eventually(async () => {
      const [received] = hooks.received.filter((r) => r.path === '/log-id');
      expect(received).toBeDefined();
      return received!;
    }, 10_000);
    expect(delivery.headers['webhook-id']).toBe(event.id);
    expect((await list(principal)).data.map((entry) => entry.id)).toEqual([event.id]);
    expect(delivery.body).toBe(webhookPayload(event));
    await stack.bus.request('webhooks.delete', { principal, id: target.endpoint.id });
  });

  it('records an event once, however many times it is published or applied', async () => {
    const principal = caller();
    const event = await emit(eventOf(principal));
    await stack.bus.publish(event);
    await app.app.get(EventsRepository).record(db.manager, event, webhookPayload(event));
    const later = await emit(eventOf(principal));
    expect((await list(principal)).data.map((entry) => entry.id)).toEqual([later.id, event.id]);
  });

  it('keeps each mode and each organization to its own log', async () => {
    const sandbox = caller();
    const live = caller({ organizationId: sandbox.organizationId, livemode: true });
    const other = caller();
    const inSandbox = await emit(eventOf(sandbox));
    const inLive = await emit(eventOf(live));
    const elsewhere = await emit(eventOf(other));
    expect((await list(sandbox)).data.map((entry) => entry.id)).toEqual([inSandbox.id]);
    expect((await list(live)).data.map((entry) => entry.id)).toEqual([inLive.id]);
    expect((await list(other)).data.map((entry) => entry.id)).toEqual([elsewhere.id]);
    for (const [principal, foreign] of [
      [sandbox, inLive],
      [live, inSandbox],
      [other, inSandbox],
    ] as const) {
      const problem = await problemOf(list(principal, { after: foreign.id }));
      expect(problem).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'after', message: expect.stringContaining('No event') }],
      });
    }
  });

  it('pages newest first, and oldest first after an event id, in the order events were recorded', async () => {
    const principal = caller();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await emit(eventOf(principal))).id);
    expect(await allPages(principal, { limit: 2 })).toEqual([[ids[4], ids[3]], [ids[2], ids[1]], [ids[0]]]);
    expect(await allPages(principal, { limit: 2, after: ids[0] })).toEqual([
      [ids[1], ids[2]],
      [ids[3], ids[4]],
    ]);
    expect(await list(principal, { after: ids[4] })).toEqual({ data: [], nextCursor: null });
    expect(await allPages(principal, { limit: 3, order: 'asc' })).toEqual([ids.slice(0, 3), ids.slice(3)]);
  });

  it("takes the first page's after and order repeated next to its cursor, and refuses others as another list's", async () => {
    const principal = caller();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await emit(eventOf(principal))).id);
    expect(await allPages(principal, { limit: 2, after: ids[0] }, true)).toEqual([
      [ids[1], ids[2]],
      [ids[3], ids[4]],
    ]);
    expect(await allPages(principal, { limit: 2, after: ids[0]!.toUpperCase(), order: 'asc' }, true)).toEqual([
      [ids[1], ids[2]],
      [ids[3], ids[4]],
    ]);
    expect(await allPages(principal, { limit: 3, order: 'asc' }, true)).toEqual([ids.slice(0, 3), ids.slice(3)]);
    expect(await allPages(principal, { limit: 3, order: 'desc' }, true)).toEqual([ids.slice(2).reverse(), ids.slice(0, 2).reverse()]);

    const fromAfter = (await list(principal, { limit: 1, after: ids[0] })).nextCursor!;
    const fromAsc = (await list(principal, { limit: 1, order: 'asc' })).nextCursor!;
    const fromDesc = (await list(principal, { limit: 1 })).nextCursor!;
    for (const query of [
      { cursor: fromAfter, after: ids[1] },
      { cursor: fromAsc, after: ids[0] },
      { cursor: fromDesc, order: 'asc' as const },
      { cursor: fromAsc, order: 'desc' as const },
    ]) {
      expect(await problemOf(list(principal, query))).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'cursor', message: expect.stringContaining('belongs to another list') }],
      });
    }
    expect((await list(principal, { limit: 1, cursor: fromAfter, after: ids[0] })).data.map((entry) => entry.id)).toEqual([ids[2]]);
  });

  it('filters by type and by the time events happened', async () => {
    const principal = caller();
    const old = await emit(eventOf(principal, 'signup.created', 3 * DAY_MS));
    const deleted = await emit(eventOf(principal, 'signup.deleted', 2 * DAY_MS));
    const canceled = await emit(eventOf(principal, 'participant.canceled', DAY_MS));
    const ids = async (query: EventLogQuery) => (await list(principal, query)).data.map((entry) => entry.id);
    expect(await ids({ type: 'signup.deleted' })).toEqual([deleted.id]);
    expect(await ids({ type: 'participant.canceled, signup.deleted' })).toEqual([canceled.id, deleted.id]);
    const at = (ageMs: number) => new Date(Date.now() - ageMs).toISOString();
    expect(await ids({ created_gte: at(2.5 * DAY_MS) })).toEqual([canceled.id, deleted.id]);
    expect(await ids({ created_lt: at(2.5 * DAY_MS) })).toEqual([old.id]);
    expect(await ids({ created_gte: at(2.5 * DAY_MS), created_lt: at(1.5 * DAY_MS) })).toEqual([deleted.id]);
    expect(await ids({ after: old.id, type: 'participant.canceled' })).toEqual([canceled.id]);
  });

  /**
   * Records `early` in a transaction held open, then publishes `late` (recorded, committed, but not
   * settled while `early`'s transaction runs) and runs `body`, which may commit the held one.
   */
  async function withEarlierTransactionOpen(
    principal: Principal,
    body: (held: { early: CloudEvent; late: CloudEvent; commit: () => Promise<void> }) => Promise<void>,
  ): Promise<void> {
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      const early = eventOf(principal);
      await app.app.get(EventsRepository).record(runner.manager, early, webhookPayload(early));
      const late = eventOf(principal);
      await stack.bus.publish(late);
      await eventually(async () => expect(await recorded(late.id)).toBe(1), 10_000);
      await body({ early, late, commit: () => runner.commitTransaction() });
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it('lists no event while a transaction that began before it is still running, then both in order', async () => {
    const principal = caller();
    await withEarlierTransactionOpen(principal, async ({ early, late, commit }) => {
      expect((await list(principal)).data).toEqual([]);
      await commit();
      await eventually(async () => expect((await list(principal)).data.map((entry) => entry.id)).toEqual([late.id, early.id]), 10_000);
    });
  });

  it('answers an after whose event is recorded but not listed yet with a 409 to retry, then reads on from it', async () => {
    const principal = caller();
    await withEarlierTransactionOpen(principal, async ({ late, commit }) => {
      const problem = await problemOf(list(principal, { after: late.id }));
      expect(problem).toMatchObject({ code: 'conflict', status: 409, headers: { 'retry-after': '1' } });
      expect(problem.detail).toContain('not in the log yet');
      await commit();
      const next = eventOf(principal);
      await emit(next);
      expect((await list(principal, { after: late.id })).data.map((entry) => entry.id)).toEqual([next.id]);
    });
  });

  it('tells at boot when the log holds transaction ids ahead of the server, as a restore from a logical copy leaves', async () => {
    const frontier = app.app.get(LogFrontier);
    await emit(eventOf(caller()));
    expect(await frontier.check()).toBe(false);
    const restored = eventOf(caller());
    await db.query(
      `INSERT INTO "webhooks"."events" (id, organization_id, livemode, type, payload, created_at, tx_id)
       VALUES ($1, $2, false, $3, '{}', now(), (pg_snapshot_xmax(pg_current_snapshot())::text::numeric + 1000000)::text::xid8)`,
      [restored.id, restored.orgid, restored.type],
    );
    try {
      expect(await frontier.check()).toBe(true);
    } finally {
      await db.query(`DELETE FROM "webhooks"."events" WHERE id = $1`, [restored.id]);
    }
    expect(await frontier.check()).toBe(false);
  });

  describe('refuses', () => {
    it('a cursor of another organization, mode or filter set, as a 422 on cursor', async () => {
      const principal = caller();
      for (let i = 0; i < 2; i += 1) await emit(eventOf(principal));
      const { nextCursor } = await list(principal, { limit: 1 });
      expect(nextCursor).toEqual(expect.any(String));
      for (const [who, query] of [
        [caller(), {}],
        [caller({ organizationId: principal.organizationId, livemode: true }), {}],
        [principal, { type: 'signup.created' }],
      ] as const) {
        const problem = await problemOf(list(who, { ...query, cursor: nextCursor! }));
        expect(problem).toMatchObject({
          code: 'validation_failed',
          errors: [{ path: 'cursor', message: expect.stringContaining('belongs to another list') }],
        });
      }
      const webhooksCursor = encodeCursor(
        { createdAt: new Date().toISOString(), id: newId() },
        { ...listOf(principal), list: 'webhooks.list' },
      );
      expect(await problemOf(list(principal, { cursor: webhooksCursor }))).toMatchObject({ errors: [{ path: 'cursor' }] });
    });

    it.each([
      ['not base64url JSON', () => '%%%'],
      ['another shape', (p: Principal) => encodeCursor({ createdAt: new Date().toISOString(), id: newId() }, listOf(p))],
      [
        'a position that is not a number',
        (p: Principal) => encodeCursor({ d: 'asc', tx: 'x', seq: '1', at: new Date().toISOString() }, listOf(p)),
      ],
      ['an unknown direction', (p: Principal) => encodeCursor({ d: 'up', tx: '1', seq: '1', at: new Date().toISOString() }, listOf(p))],
      [
        'an order in the transaction above bigint',
        (p: Principal) => encodeCursor({ d: 'asc', tx: '1', seq: '9223372036854775808', at: new Date().toISOString() }, listOf(p)),
      ],
      [
        'a transaction id above 64 bits',
        (p: Principal) => encodeCursor({ d: 'desc', tx: '18446744073709551616', seq: '1', at: new Date().toISOString() }, listOf(p)),
      ],
      [
        'an after that is not text',
        (p: Principal) => encodeCursor({ d: 'asc', tx: '1', seq: '1', at: new Date().toISOString(), a: 1 } as never, listOf(p)),
      ],
    ])('a cursor holding %s as Invalid cursor', async (_case, cursorOf) => {
      const principal = caller();
      const problem = await problemOf(list(principal, { cursor: cursorOf(principal) }));
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
    });

    it('no cursor at the largest position Postgres holds (it lists what is before or after it)', async () => {
      const principal = caller();
      const event = await emit(eventOf(principal));
      const at = new Date().toISOString();
      const cursorAt = (d: 'asc' | 'desc') =>
        encodeCursor({ d, tx: '18446744073709551615', seq: '9223372036854775807', at }, listOf(principal));
      expect(await list(principal, { cursor: cursorAt('asc') })).toEqual({ data: [], nextCursor: null });
      expect((await list(principal, { cursor: cursorAt('desc') })).data.map((entry) => entry.id)).toEqual([event.id]);
    });

    it('an oldest-first cursor or event id older than the log keeps, as 410 cursor_expired (a newest-first one just ends)', async () => {
      const principal = caller();
      const tooOld = (RETENTION_HOURS + 1) * 3600 * 1000;
      const cursor = encodeCursor({ d: 'asc', tx: '1', seq: '1', at: new Date(Date.now() - tooOld).toISOString() }, listOf(principal));
      const kept = await emit(eventOf(principal, 'signup.created', tooOld));
      for (const query of [{ cursor }, { after: v7Made(tooOld) }, { after: kept.id }]) {
        const problem = await problemOf(list(principal, query));
        expect(problem).toMatchObject({ code: 'cursor_expired', status: 410 });
      }
      expect(await problemOf(list(principal, { after: v7Made(DAY_MS) }))).toMatchObject({ code: 'validation_failed' });
      const back = encodeCursor({ d: 'desc', tx: '1', seq: '1', at: new Date(Date.now() - tooOld).toISOString() }, listOf(principal));
      expect(await list(principal, { cursor: back })).toEqual({ data: [], nextCursor: null });
    });

    it('an unknown type, a malformed or future time, after with a newest-first order, an OAuth token and a key without participants:read', async () => {
      const principal = caller();
      const { nextCursor } = await list(principal);
      const cases: [EventLogQuery, string][] = [
        [{ type: 'signup.created,signup.exploded' }, 'type'],
        [{ type: 'webhook.test' }, 'type'],
        [{ created_gte: 'yesterday' }, 'created_gte'],
        [{ created_lt: '2026-02-30T00:00:00Z' }, 'created_lt'],
        [{ created_gte: new Date(Date.now() + 3_600_000).toISOString() }, 'created_gte'],
        [{ created_lt: new Date(Date.now() + 3_600_000).toISOString() }, 'created_lt'],
        [{ after: 'not-a-uuid' }, 'after'],
        [{ order: 'up' as 'asc' }, 'order'],
        [{ after: newId(), order: 'desc' }, 'order'],
        [
          { order: 'desc', cursor: encodeCursor({ d: 'asc', tx: '1', seq: '1', at: new Date().toISOString() }, listOf(principal)) },
          'cursor',
        ],
        [
          { after: newId(), cursor: encodeCursor({ d: 'asc', tx: '1', seq: '1', at: new Date().toISOString() }, listOf(principal)) },
          'cursor',
        ],
      ];
      expect(nextCursor).toBeNull();
      for (const [query, path] of cases) {
        const problem = await problemOf(list(principal, query));
        expect(problem).toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path })] });
      }
      expect(await problemOf(list(caller({ kind: 'oauth' })))).toMatchObject({ code: 'forbidden' });
      const signupsReader = { ...principal, scopes: ['signups:read', 'signups:write', 'participants:write'] } as Principal;
      expect(await problemOf(list(signupsReader))).toMatchObject({
        code: 'scope_required',
        status: 403,
        detail: 'This operation requires the scope "participants:read".',
      });
    });
  });
});
