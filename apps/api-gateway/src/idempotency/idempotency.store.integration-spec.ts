import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, type TestStack } from '#libs/testing';
import { apiGatewayApp } from '../index.js';
import { IdempotencyStore, type IdempotentRequest } from './idempotency.store.js';

const TABLE = '"gateway"."idempotency_keys"';
const answer = { status: 201, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"confirmationToken":"cnf_secret"}' };

describe('IdempotencyStore on Postgres', () => {
  let stack: TestStack;
  let gateway: RunningApp;
  let db: DataSource;
  let store: IdempotencyStore;

  const request = (overrides: Partial<IdempotentRequest> = {}): IdempotentRequest => ({
    scope: 'org:org_1:test',
    key: randomUUID(),
    fingerprint: 'fp-1',
    ...overrides,
  });

  beforeAll(async () => {
    stack = await createTestStack('idempotency-store');
    gateway = await stack.boot(apiGatewayApp);
    db = gateway.context.dataSource!;
    store = new IdempotencyStore(db);
  });

  afterAll(() => stack.close());

  it('lets the first request execute, then replays its answer to the same request', async () => {
    const req = request();
    const first = await store.begin(req);
    expect(first.outcome).toBe('execute');
    expect(await store.begin(req)).toEqual({ outcome: 'in_progress' });
    if (first.outcome !== 'execute') throw new Error('not claimed');
    await store.complete(first.claim, answer);
    expect(await store.begin(req)).toEqual({ outcome: 'replay', response: answer });
    expect(await store.begin({ ...req, fingerprint: 'fp-2' })).toEqual({ outcome: 'reuse' });
  });

  it('keeps keys of different scopes apart', async () => {
    const key = randomUUID();
    expect((await store.begin(request({ key, scope: 'org:org_1:live' }))).outcome).toBe('execute');
    expect((await store.begin(request({ key, scope: 'ip:192.0.2.1' }))).outcome).toBe('execute');
  });

  it('claims a key once among concurrent requests', async () => {
    const req = request();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => store.begin(req)));
    expect(outcomes.filter((o) => o.outcome === 'execute')).toHaveLength(1);
    expect(outcomes.filter((o) => o.outcome === 'in_progress')).toHaveLength(19);
  });

  it('forgets a released claim, so a retry executes', async () => {
    const req = request();
    const first = await store.begin(req);
    if (first.outcome !== 'execute') throw new Error('not claimed');
    await store.release(first.claim);
    expect((await store.begin(req)).outcome).toBe('execute');
  });

  it('holds neither the key nor the answer in clear', async () => {
    const req = request({ key: `visible-${randomUUID()}` });
    const first = await store.begin(req);
    if (first.outcome !== 'execute') throw new Error('not claimed');
    await store.complete(first.claim, answer);
    const rows = await db.query<{ row: string }[]>(`SELECT row_to_json(k)::text AS row, encode(response, 'escape') AS raw FROM ${TABLE} k`);
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(req.key);
    expect(dump).not.toContain('cnf_secret');
  });

  it('takes over a claim whose request died, only for the same request', async () => {
    const req = request();
    const first = await store.begin(req);
    if (first.outcome !== 'execute') throw new Error('not claimed');
    await db.query(`UPDATE ${TABLE} SET locked_until = now() - interval '1 second' WHERE id = $1`, [first.claim.id]);
    expect(await store.begin({ ...req, fingerprint: 'fp-other' })).toEqual({ outcome: 'reuse' });
    const retry = await store.begin(req);
    expect(retry.outcome).toBe('execute');
    await store.complete(first.claim, { ...answer, status: 500 });
    expect(await store.begin(req)).toEqual({ outcome: 'in_progress' });
  });

  it('starts afresh after 24 hours, whatever the request', async () => {
    const req = request();
    const first = await store.begin(req);
    if (first.outcome !== 'execute') throw new Error('not claimed');
    await store.complete(first.claim, answer);
    await db.query(`UPDATE ${TABLE} SET expires_at = now() - interval '1 second' WHERE id = $1`, [first.claim.id]);
    expect((await store.begin({ ...req, fingerprint: 'fp-new' })).outcome).toBe('execute');
  });

  it('has its records deleted by the retention job an hour past their expiry, and keeps the others', async () => {
    const expired = await Promise.all([request(), request(), request()].map((r) => store.begin(r)));
    const live = request();
    const justExpired = request();
    await store.begin(live);
    const recent = await store.begin(justExpired);
    const ids = expired.map((o) => (o.outcome === 'execute' ? o.claim.id : ''));
    await db.query(`UPDATE ${TABLE} SET expires_at = now() - interval '61 minutes' WHERE id = ANY($1)`, [ids]);
    await db.query(`UPDATE ${TABLE} SET expires_at = now() - interval '59 minutes' WHERE id = $1`, [
      recent.outcome === 'execute' ? recent.claim.id : '',
    ]);
    expect(await gateway.retention!.runOnce()).toEqual({ idempotency_keys: 3 });
    expect(await db.query(`SELECT count(*)::int AS n FROM ${TABLE} WHERE expires_at < now()`)).toEqual([{ n: 1 }]);
    expect(await db.query(`SELECT id FROM ${TABLE} WHERE id = ANY($1)`, [ids])).toEqual([]);
    expect(await store.begin(live)).toEqual({ outcome: 'in_progress' });
  });
});
