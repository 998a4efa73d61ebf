import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { utcDay } from '#libs/contracts';
import { type AppHarness, caller, daysFromNow, problemOf, SIGNUP_TIME_ZONE, startApp } from '../testing/fixtures.js';

const CAP = 3;

describe('daily cap on signup creation', () => {
  let harness: AppHarness;
  let db: DataSource;

  beforeAll(async () => {
    harness = await startApp('signups_daily_cap', { env: { SIGNUPS_PER_DAY: String(CAP) } });
    db = harness.app.context.dataSource!;
  });

  afterAll(() => harness.close());

  const create = (principal = caller(), title = 'Potluck') =>
    harness.stack.bus.request('signups.create', { principal, input: { title, eventDate: daysFromNow(10), timeZone: SIGNUP_TIME_ZONE } });

  it('creates SIGNUPS_PER_DAY signups per organization across its credentials and modes, then refuses with Retry-After until UTC midnight', async () => {
    const sandbox = caller();
    const live = caller({ organizationId: sandbox.organizationId, livemode: true });
    await create(sandbox);
    await create(live);
    await create(caller({ organizationId: sandbox.organizationId }));
    const before = utcDay().secondsLeft;
    const refused = await problemOf(create(sandbox));
    expect(refused.code).toBe('daily_ceiling_exceeded');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeLessThanOrEqual(before);
    expect(retryAfter).toBeGreaterThan(before - 5);
    expect((await create(caller())).id).toBeDefined();
  });

  it('lets exactly the cap through among parallel creations and stores only those', async () => {
    const principal = caller();
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => create(principal, `Race ${i}`)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(CAP);
    expect(
      results.filter((r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'daily_ceiling_exceeded'),
    ).toHaveLength(10 - CAP);
    const [{ count }] = await db.query<{ count: string }[]>(`SELECT count(*) FROM "signups"."signups" WHERE organization_id = $1`, [
      principal.organizationId,
    ]);
    expect(Number(count)).toBe(CAP);
  });

  it('gives nothing back when a signup is deleted', async () => {
    const principal = caller();
    const created = await Promise.all(Array.from({ length: CAP }, () => create(principal)));
    await harness.stack.bus.request('signups.delete', { principal, id: created[0]!.id });
    expect((await problemOf(create(principal))).code).toBe('daily_ceiling_exceeded');
  });

  it('counts each copy of a duplication: past the cap none is created, the signup joins no series, and the copies that fit are made', async () => {
    const principal = caller();
    const source = await create(principal);
    const dates = [daysFromNow(17), daysFromNow(24), daysFromNow(31)];
    const refused = await problemOf(
      harness.stack.bus.request('signups.duplicate', { principal, id: source.id, input: { eventDates: dates } }),
    );
    expect(refused.code).toBe('daily_ceiling_exceeded');
    const stored = await db.query<{ id: string; series_id: string | null }[]>(
      `SELECT id, series_id FROM "signups"."signups" WHERE organization_id = $1`,
      [principal.organizationId],
    );
    expect(stored).toEqual([{ id: source.id, series_id: null }]);
    const { data } = await harness.stack.bus.request('signups.duplicate', {
      principal,
      id: source.id,
      input: { eventDates: dates.slice(1) },
    });
    expect(data).toHaveLength(CAP - 1);
    expect((await problemOf(create(principal))).code).toBe('daily_ceiling_exceeded');
  });

  it('counts afresh on a new UTC day and forgets earlier days', async () => {
    const principal = caller();
    await db.query(
      `INSERT INTO "signups"."daily_creations" (organization_id, day, count) VALUES ($1, (now() AT TIME ZONE 'UTC')::date - 1, $2)`,
      [principal.organizationId, CAP],
    );
    await create(principal);
    const days = await db.query<{ count: number }[]>(`SELECT count FROM "signups"."daily_creations" WHERE organization_id = $1`, [
      principal.organizationId,
    ]);
    expect(days).toEqual([{ count: 1 }]);
  });
});

describe('a daily cap of 0', () => {
  it('refuses every creation', async () => {
    const harness = await startApp('signups_cap_zero', { env: { SIGNUPS_PER_DAY: '0' } });
    try {
      const refused = await problemOf(
        harness.stack.bus.request('signups.create', {
          principal: caller(),
          input: { title: `Never ${randomUUID()}`, eventDate: daysFromNow(3), timeZone: SIGNUP_TIME_ZONE },
        }),
      );
      expect(refused.code).toBe('daily_ceiling_exceeded');
    } finally {
      await harness.close();
    }
  });
});
