import { randomUUID } from 'node:crypto';
import type { SignupView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { type ApiResponse, newTenant, signupBody } from './support/api.js';
import { DEFAULT_LIMITS_ENV, type ExtraGateway, startGateway } from './support/processes.js';
import { newSignup, person } from './support/signups.js';

/**
 * Two more gateway processes at the default limits, beside the stack's: whatever one replica
 * counts, the other sees. TRUST_PROXY lets each test speak from client addresses of its own.
 */
describe('limits shared by two gateway replicas', () => {
  let a: ExtraGateway;
  let b: ExtraGateway;
  let addresses = 0;
  const clientAddress = () => `203.0.113.${++addresses}`;
  const replica = (i: number) => (i % 2 === 0 ? a : b);

  beforeAll(async () => {
    [a, b] = await Promise.all([
      startGateway({ ...DEFAULT_LIMITS_ENV, TRUST_PROXY: '127.0.0.1' }),
      startGateway({ ...DEFAULT_LIMITS_ENV, TRUST_PROXY: '127.0.0.1' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  function expectSecondsNear(value: string | null, expected: number, slack = 3): void {
    expect(Number(value)).toBeGreaterThanOrEqual(expected - slack);
    expect(Number(value)).toBeLessThanOrEqual(expected);
  }

  describe('per credential, by tier', () => {
    it('counts every call of a key on either replica and reports what remains', async () => {
      const { key } = await newTenant('free');
      const before = Math.floor(Date.now() / 1000);
      const answers: ApiResponse[] = [await replica(0).call('/signups', { key })];
      const firstAnswered = Math.ceil(Date.now() / 1000);
      for (let i = 1; i < 3; i++) answers.push(await replica(i).call('/signups', { key }));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['119', '118', '117']);
      const last = answers[2]!.headers;
      expect(last.get('ratelimit-policy')).toBe('"credential";q=120;w=60');
      expect(last.get('ratelimit')).toMatch(/^"credential";r=117;t=(5\d|60)$/);
      expect(last.get('x-ratelimit-limit')).toBe('120');
      const reset = Number(last.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThanOrEqual(before + 60);
      expect(reset).toBeLessThanOrEqual(firstAnswered + 60);
    });

    it('refuses the call past the budget with 429 rate_limited and Retry-After, whichever replica takes it', async () => {
      const tenant = await newTenant('free');
      const served = await Promise.all(Array.from({ length: 120 }, (_, i) => replica(i).call('/signups', { key: tenant.key })));
      expect(served.every((r) => r.status === 200)).toBe(true);
      const refused = await b.call<ProblemBody>('/signups', { key: tenant.key });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
      expect(refused.body.code).toBe('rate_limited');
      expectSecondsNear(refused.headers.get('retry-after'), 60, 5);
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('ratelimit')).toMatch(/^"credential";r=0;t=\d+$/);
      expect((await a.call('/signups', { key: tenant.key })).status).toBe(429);

      const other = await tenant.newKey();
      expect((await a.call('/signups', { key: other.key })).status).toBe(200);
    });

    it('gives a pro organization 600 calls a minute', async () => {
      const { key } = await newTenant('pro');
      const res = await a.call('/signups', { key });
      expect(res.headers.get('ratelimit-policy')).toBe('"credential";q=600;w=60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('599');
    });

    it('puts the fields on error answers of limited routes, and none on the probes', async () => {
      const { key } = await newTenant('free');
      const missing = await a.call(`/signups/${randomUUID()}`, { key });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('x-ratelimit-remaining')).toBe('119');
      const health = await fetch(`${new URL(a.baseUrl).origin}/healthz`);
      expect(health.headers.get('ratelimit')).toBeNull();
    });
  });

  it('enforces the budgets of TIER_LIMITS and ANON_LIMITS', async () => {
    const tuned = await startGateway({
      TIER_LIMITS: '{"free":{"requestsPerMinute":2}}',
      ANON_LIMITS: '{"readsPerMinute":1}',
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_PREFIX: `tuned-${randomUUID()}`,
    });
    try {
      const { key } = await newTenant('free');
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await tuned.call('/signups', { key })).status);
      expect(statuses).toEqual([200, 200, 429]);
      const headers = { 'x-forwarded-for': clientAddress() };
      const read = await tuned.call('/public/signups/no-such-signup', { headers });
      expect(read.headers.get('ratelimit-policy')).toBe('"anonymous-reads";q=1;w=60, "anonymous-day";q=200;w=86400');
      expect((await tuned.call('/public/signups/no-such-signup', { headers })).status).toBe(429);
    } finally {
      await tuned.stop();
    }
  });

  describe('anonymous, per client address', () => {
    it('allows 6 writes a minute across replicas, then 429 with Retry-After, reads still allowed', async () => {
      const { key } = await newTenant();
      const { signup } = await newSignup(key);
      const address = clientAddress();
      const headers = { 'x-forwarded-for': address };
      const writes: ApiResponse[] = [];
      for (let i = 0; i < 6; i++) writes.push(await replica(i).call(`/signups/${signup.id}/participants`, { body: person(), headers }));
      expect(writes.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
      expect(writes.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['5', '4', '3', '2', '1', '0']);
      expect(writes[0]!.headers.get('ratelimit-policy')).toBe('"anonymous-writes";q=6;w=60, "anonymous-day";q=200;w=86400');

      const refused = await a.call<ProblemBody>(`/signups/${signup.id}/participants`, { body: person(), headers });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expectSecondsNear(refused.headers.get('retry-after'), 60, 5);

      const read = await b.call(`/public/signups/${signup.slug}`, { headers });
      expect(read.status).toBe(200);
      expect(read.headers.get('ratelimit')).toMatch(/^"anonymous-reads";r=59;t=\d+$/);
      const elsewhere = await b.call(`/signups/${signup.id}/participants`, {
        body: person(),
        headers: { 'x-forwarded-for': clientAddress() },
      });
      expect(elsewhere.status).toBe(201);
    });

    it('ignores X-Forwarded-For on a gateway without TRUST_PROXY', async () => {
      const { key } = await newTenant();
      const { signup } = await newSignup(key);
      const direct = await startGateway({ ...DEFAULT_LIMITS_ENV, TRUST_PROXY: 'false', RATE_LIMIT_PREFIX: `direct-${randomUUID()}` });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 7; i++) {
          statuses.push(
            (await direct.call(`/signups/${signup.id}/participants`, { body: person(), headers: { 'x-forwarded-for': clientAddress() } }))
              .status,
          );
        }
        expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429]);
      } finally {
        await direct.stop();
      }
    });

    it('counts refused credentials against the address: guessing keys is limited like any anonymous call', async () => {
      const headers = { 'x-forwarded-for': clientAddress() };
      const guess = () => `sgn_test_${randomUUID().replaceAll('-', '')}`;
      const first = await a.call<ProblemBody>('/signups', { key: guess(), headers });
      expect(first.status).toBe(401);
      expect(first.body.code).toBe('invalid_credentials');
      expect(first.headers.get('ratelimit')).toMatch(/^"anonymous-reads";r=59;t=\d+$/);
      const more = await Promise.all(Array.from({ length: 59 }, (_, i) => replica(i).call('/signups', { key: guess(), headers })));
      expect(more.every((r) => r.status === 401)).toBe(true);
      const blocked = await b.call<ProblemBody>('/signups', { key: guess(), headers });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('rate_limited');
      const { key } = await newTenant();
      expect((await a.call('/signups', { key, headers })).status).toBe(200);
    });

    it('counts refusals no guard saw against the address and puts the fields on them', async () => {
      const { key } = await newTenant('free');
      const headers = { 'x-forwarded-for': clientAddress() };
      const raw = (path: string, init: RequestInit) =>
        fetch(`${a.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...headers, ...init.headers } });
      const json = { 'content-type': 'application/json' };
      const malformed = await raw('/signups', { method: 'POST', headers: json, body: '{"title":' });
      const wrongType = await raw('/signups', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'title' });
      const unknownRoute = await raw('/no-such-route', {});
      const unknownMethod = await raw('/signups', { method: 'PUT', headers: json, body: '{}' });
      const refusals = [malformed, wrongType, unknownRoute, unknownMethod];
      expect(refusals.map((r) => r.status)).toEqual([422, 422, 404, 404]);
      expect(refusals.map((r) => r.headers.get('ratelimit'))).toEqual([
        expect.stringMatching(/^"anonymous-writes";r=5;t=\d+$/),
        expect.stringMatching(/^"anonymous-writes";r=4;t=\d+$/),
        expect.stringMatching(/^"anonymous-reads";r=59;t=\d+$/),
        expect.stringMatching(/^"anonymous-writes";r=3;t=\d+$/),
      ]);
      expect(refusals.every((r) => r.headers.get('x-ratelimit-limit') !== null && r.headers.get('x-ratelimit-reset') !== null)).toBe(true);

      for (let i = 0; i < 3; i++) expect((await raw('/signups', { method: 'PUT', headers: json, body: '{}' })).status).toBe(404);
      const spent = await raw('/signups', { method: 'POST', headers: json, body: '{' });
      expect(spent.status).toBe(422);
      expect(spent.headers.get('x-ratelimit-remaining')).toBe('0');
      expectSecondsNear(spent.headers.get('retry-after'), 60, 5);
      expect((await a.call('/signups', { key, headers })).headers.get('ratelimit')).toMatch(/^"credential";r=119;t=\d+$/);
      const docs = await fetch(`${a.baseUrl}/openapi.json`, { headers });
      expect(docs.status).toBe(200);
      expect(docs.headers.get('ratelimit')).toBeNull();
    });

    it('uses the credential budget, not the address, when a registration sends a key', async () => {
      const { key } = await newTenant();
      const { signup } = await newSignup(key);
      const headers = { 'x-forwarded-for': clientAddress() };
      for (let i = 0; i < 7; i++) {
        const res = await replica(i).call(`/signups/${signup.id}/participants`, { key, body: person(), headers });
        expect(res.status).toBe(201);
        expect(res.headers.get('ratelimit-policy')).toBe('"credential";q=600;w=60');
      }
    });
  });

  describe('daily cap on POST /signups', () => {
    it('creates 50 a UTC day per organization across replicas, exactly, and refuses the rest with daily_ceiling_exceeded', async () => {
      const tenant = await newTenant();
      const invalid = await a.call<ProblemBody>('/signups', { key: tenant.key, body: { title: '' } });
      expect(invalid.status).toBe(422);
      const first = await Promise.all(
        Array.from({ length: 40 }, (_, i) => replica(i).call('/signups', { key: tenant.key, body: signupBody({ title: `Day ${i}` }) })),
      );
      expect(first.every((r) => r.status === 201)).toBe(true);

      const live = await tenant.newKey({ mode: 'live' });
      // Retry-After is rounded up from the moment the service refuses, after this one.
      const secondsToMidnight = 86_400 - Math.floor((Date.now() / 1000) % 86_400);
      const race = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          replica(i).call<ProblemBody>('/signups', { key: i < 10 ? tenant.key : live.key, body: signupBody({ title: `Race ${i}` }) }),
        ),
      );
      expect(race.filter((r) => r.status === 201)).toHaveLength(10);
      const refusals = race.filter((r) => r.status === 429);
      expect(refusals).toHaveLength(10);
      for (const refused of refusals) {
        expect(refused.body.code).toBe('daily_ceiling_exceeded');
        expectSecondsNear(refused.headers.get('retry-after'), secondsToMidnight, 10);
      }

      const listed = await Promise.all([
        a.call<{ data: SignupView[] }>('/signups?limit=100', { key: tenant.key }),
        a.call<{ data: SignupView[] }>('/signups?limit=100', { key: live.key }),
      ]);
      expect(listed[0].body.data.length + listed[1].body.data.length).toBe(50);
      const other = await newTenant();
      expect((await b.call('/signups', { key: other.key, body: signupBody() })).status).toBe(201);
    });
  });

  describe('Idempotency-Key across replicas', () => {
    it('replays on one replica what the other executed, and refuses the key with another body', async () => {
      const { key } = await newTenant();
      const idempotencyKey = randomUUID();
      const headers = { 'idempotency-key': idempotencyKey };
      const original = await a.call<SignupView>('/signups', { key, headers, body: signupBody({ title: 'Once only' }) });
      expect(original.status).toBe(201);
      expect(original.headers.get('idempotent-replayed')).toBeNull();
      const replay = await b.call<SignupView>('/signups', { key, headers, body: signupBody({ title: 'Once only' }) });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(original.body);
      const reuse = await b.call<ProblemBody>('/signups', { key, headers, body: signupBody({ title: 'Something else' }) });
      expect(reuse.status).toBe(422);
      expect(reuse.body.code).toBe('idempotency_key_reuse');
    });

    it('executes exactly one of 20 concurrent requests with one key on two replicas', async () => {
      const { key } = await newTenant();
      const headers = { 'idempotency-key': randomUUID() };
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          replica(i).call<{ id?: string; code?: string }>('/signups', { key, headers, body: signupBody({ title: 'Stampede' }) }),
        ),
      );
      const created = answers.filter((r) => r.status === 201);
      const running = answers.filter((r) => r.status === 409);
      expect(created.length + running.length).toBe(20);
      expect(created.filter((r) => r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
      expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
      for (const r of running) {
        expect(r.body.code).toBe('idempotency_in_progress');
        expect(r.headers.get('retry-after')).toBe('1');
      }
      const listed = await a.call<{ data: SignupView[] }>('/signups', { key });
      expect(listed.body.data.map((s) => s.title)).toEqual(['Stampede']);
    });

    it('scopes an anonymous key to the client address', async () => {
      const { key } = await newTenant();
      const { signup } = await newSignup(key);
      const idempotencyKey = randomUUID();
      const body = person();
      const firstAddress = clientAddress();
      const first = await a.call<{ confirmationToken: string }>(`/signups/${signup.id}/participants`, {
        body,
        headers: { 'x-forwarded-for': firstAddress, 'idempotency-key': idempotencyKey },
      });
      const fromElsewhere = await b.call<{ confirmationToken: string }>(`/signups/${signup.id}/participants`, {
        body,
        headers: { 'x-forwarded-for': clientAddress(), 'idempotency-key': idempotencyKey },
      });
      expect([first.status, fromElsewhere.status]).toEqual([201, 201]);
      expect(fromElsewhere.headers.get('idempotent-replayed')).toBeNull();
      expect(fromElsewhere.body.confirmationToken).not.toBe(first.body.confirmationToken);
      const again = await b.call<{ confirmationToken: string }>(`/signups/${signup.id}/participants`, {
        body,
        headers: { 'x-forwarded-for': firstAddress, 'idempotency-key': idempotencyKey },
      });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.confirmationToken).toBe(first.body.confirmationToken);
    });
  });
});
