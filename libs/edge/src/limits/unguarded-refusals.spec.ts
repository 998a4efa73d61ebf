import Fastify from 'fastify';
import { DEFAULT_ANON_LIMITS, DEFAULT_TIER_LIMITS } from '#libs/config';
import { Counters } from './counters.js';
import { EdgeRateLimiter } from './edge-rate-limiter.js';
import { meterUnguardedRefusals } from './rate-limit.guard.js';

/** meterUnguardedRefusals on a real Fastify instance and in-memory counters: what no guard saw, counted by address. */
describe('refusals no guard saw', () => {
  let app: ReturnType<typeof Fastify>;
  let counters: Counters;

  beforeEach(async () => {
    counters = await Counters.create(undefined, `unguarded-${Math.random()}`);
    app = Fastify();
    meterUnguardedRefusals(app, new EdgeRateLimiter(counters, { tierLimits: DEFAULT_TIER_LIMITS, anonLimits: DEFAULT_ANON_LIMITS }));
    app.get('/broken', async () => {
      throw new Error('an upstream failed');
    });
    app.post('/json', async () => ({ ok: true }));
    app.get('/docs', async () => ({ ok: true }));
    await app.ready();
  });

  afterEach(async () => {
    await app.close();
    await counters.close();
  });

  it('counts a malformed body and an unknown route against the address, by method, and says so in the fields', async () => {
    const malformed = await app.inject({ method: 'POST', url: '/json', headers: { 'content-type': 'application/json' }, payload: '{' });
    const unknown = await app.inject({ method: 'GET', url: '/nowhere' });
    expect([malformed.statusCode, malformed.headers['ratelimit']]).toEqual([400, expect.stringMatching(/^"anonymous-writes";r=5;t=\d+$/)]);
    expect([unknown.statusCode, unknown.headers['ratelimit']]).toEqual([404, expect.stringMatching(/^"anonymous-reads";r=59;t=\d+$/)]);
  });

  it('counts no 5xx (our failure, not the caller’s) and no successful answer', async () => {
    expect((await app.inject({ method: 'GET', url: '/broken' })).headers['ratelimit']).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/docs' })).headers['ratelimit']).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/nowhere' })).headers['ratelimit']).toMatch(/^"anonymous-reads";r=59;t=\d+$/);
  });
});
