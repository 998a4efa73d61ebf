import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { DEFAULT_ANON_LIMITS, DEFAULT_TIER_LIMITS, type Tier } from '#libs/config';
import { Metrics } from '#libs/observability';
import { Counters } from './counters.js';
import { type EdgeLimits, EdgeRateLimiter, type LimitedCall } from './edge-rate-limiter.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMITS: EdgeLimits = { tierLimits: DEFAULT_TIER_LIMITS, anonLimits: DEFAULT_ANON_LIMITS };
/** 2026-11-22T10:00:00Z: 50,400 seconds before the next UTC midnight. */
const NOW = Date.parse('2026-11-22T10:00:00.000Z');

const credential = (id: string, tier: Tier = 'free'): LimitedCall => ({
  principal: { credentialId: id, tier },
  ip: '192.0.2.1',
  write: false,
});
const anonymous = (ip: string, write: boolean): LimitedCall => ({ ip, write });

async function calls(limiter: EdgeRateLimiter, call: LimitedCall, times: number, now = NOW) {
  const verdicts = [];
  for (let i = 0; i < times; i++) verdicts.push(await limiter.check(call, now));
  return verdicts;
}

describe('edge rate limits on Redis', () => {
  const prefix = `ratelimit-test-${randomBytes(6).toString('hex')}`;
  const replicas: Counters[] = [];
  let first: EdgeRateLimiter;
  let second: EdgeRateLimiter;

  beforeAll(async () => {
    replicas.push(await Counters.create(REDIS_URL, prefix), await Counters.create(REDIS_URL, prefix));
    first = new EdgeRateLimiter(replicas[0]!, LIMITS);
    second = new EdgeRateLimiter(replicas[1]!, LIMITS);
  });

  afterAll(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    for (const counters of replicas) await counters.close();
  });

  it('reports the credential policy and what remains of it after each call', async () => {
    const [a, b, c] = await calls(first, credential('key-headers'), 3);
    expect(a!.headers).toEqual({
      'ratelimit-policy': '"credential";q=120;w=60',
      ratelimit: '"credential";r=119;t=60',
      'x-ratelimit-limit': '120',
      'x-ratelimit-remaining': '119',
      'x-ratelimit-reset': String(NOW / 1000 + 60),
    });
    expect(b!.headers['x-ratelimit-remaining']).toBe('118');
    expect(c!.headers.ratelimit).toMatch(/^"credential";r=117;t=(59|60)$/);
    expect(c!.refusal).toBeUndefined();
  });

  it('shares a credential budget between replicas and refuses the call past it with Retry-After', async () => {
    const call = credential('key-shared');
    await calls(first, call, 60);
    await calls(second, call, 59);
    const last = await first.check(call, NOW);
    expect(last.refusal).toBeUndefined();
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    const refused = await second.check(call, NOW);
    expect(refused.refusal).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(refused.refusal!.headers['retry-after']).toMatch(/^(59|60)$/);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.refusal!.detail).toMatch(/120 requests per minute for this credential/);
  });

  it('lets parallel calls through exactly up to the budget', async () => {
    const call = credential('key-parallel');
    const verdicts = await Promise.all(Array.from({ length: 150 }, (_, i) => (i % 2 ? first : second).check(call, NOW)));
    expect(verdicts.filter((v) => !v.refusal)).toHaveLength(120);
    expect(verdicts.filter((v) => v.refusal?.code === 'rate_limited')).toHaveLength(30);
  });

  it('counts by the tier of the moment: an upgrade mid-minute raises the budget of the same count', async () => {
    await calls(first, credential('key-upgrade', 'free'), 120);
    expect((await first.check(credential('key-upgrade', 'free'), NOW)).refusal).toBeDefined();
    const upgraded = await first.check(credential('key-upgrade', 'pro'), NOW);
    expect(upgraded.refusal).toBeUndefined();
    expect(upgraded.headers['ratelimit-policy']).toBe('"credential";q=600;w=60');
    expect(upgraded.headers['x-ratelimit-remaining']).toBe('479');
    expect(await first.check(credential('key-upgrade', 'free'), NOW)).toMatchObject({ refusal: { code: 'rate_limited' } });
  });

  it('gives anonymous reads and writes their own minute budgets and reports the tighter policy', async () => {
    const ip = '198.51.100.7';
    const [read] = await calls(first, anonymous(ip, false), 1);
    expect(read!.headers['ratelimit-policy']).toBe('"anonymous-reads";q=60;w=60, "anonymous-day";q=200;w=86400');
    expect(read!.headers.ratelimit).toBe('"anonymous-reads";r=59;t=60');
    const writes = await calls(second, anonymous(ip, true), 6);
    expect(writes.map((v) => v.headers['x-ratelimit-remaining'])).toEqual(['5', '4', '3', '2', '1', '0']);
    expect(writes[5]!.headers['ratelimit-policy']).toBe('"anonymous-writes";q=6;w=60, "anonymous-day";q=200;w=86400');
    const refused = await first.check(anonymous(ip, true), NOW);
    expect(refused.refusal).toMatchObject({ code: 'rate_limited' });
    expect(refused.refusal!.headers['retry-after']).toMatch(/^(59|60)$/);
    expect(refused.refusal!.detail).toMatch(/6 writes per minute for this client address/);
    expect((await first.check(anonymous(ip, false), NOW)).refusal).toBeUndefined();
  });

  it('charges no budget for a refused call', async () => {
    const ip = '198.51.100.8';
    await calls(first, anonymous(ip, true), 6);
    await calls(first, anonymous(ip, true), 3);
    const read = await first.check(anonymous(ip, false), NOW);
    expect(read.headers.ratelimit).toBe('"anonymous-reads";r=59;t=60');
    const redis = new Redis(REDIS_URL);
    expect(await redis.get(`${prefix}:ip:${ip}:day:2026-11-22`)).toBe('7');
    await redis.quit();
  });

  it('stops an address at its daily total until the next UTC midnight', async () => {
    const daily = new EdgeRateLimiter(replicas[0]!, { ...LIMITS, anonLimits: { readsPerMinute: 1000, writesPerMinute: 1000, perDay: 3 } });
    const ip = '198.51.100.9';
    const served = await calls(daily, anonymous(ip, false), 3);
    expect(served.map((v) => v.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0']);
    expect(served[2]!.headers.ratelimit).toBe('"anonymous-day";r=0;t=50400');
    const refused = await daily.check(anonymous(ip, true), NOW);
    expect(refused.refusal!.headers['retry-after']).toBe('50400');
    expect(refused.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-23T00:00:00.000Z') / 1000));
    expect((await daily.check(anonymous(ip, false), Date.parse('2026-11-23T00:00:01.000Z'))).refusal).toBeUndefined();
  });
});

describe('edge rate limits without Redis', () => {
  it('counts in memory in all-in-one mode, and counts each refusal by its policy in the metrics', async () => {
    const metrics = new Metrics('api-gateway', { defaultMetrics: false });
    const limiter = new EdgeRateLimiter(await Counters.create(undefined, 'memory'), LIMITS, metrics);
    const verdicts = await calls(limiter, anonymous('203.0.113.1', true), 7);
    expect(verdicts.map((v) => v.refusal?.code)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'rate_limited',
    ]);
    expect(await metrics.render()).toContain('rate_limit_rejections_total{policy="anonymous-writes",app="api-gateway"} 1');
  });

  it('shares the in-memory counts of one prefix between the edges of a process, and keeps other prefixes apart', async () => {
    const rest = new EdgeRateLimiter(await Counters.create(undefined, 'shared-in-process'), LIMITS);
    const mcp = new EdgeRateLimiter(await Counters.create(undefined, 'shared-in-process'), LIMITS);
    const other = new EdgeRateLimiter(await Counters.create(undefined, 'another-prefix'), LIMITS);
    await calls(rest, credential('key-in-process'), 2);
    expect((await mcp.check(credential('key-in-process'), NOW)).headers['x-ratelimit-remaining']).toBe('117');
    expect((await other.check(credential('key-in-process'), NOW)).headers['x-ratelimit-remaining']).toBe('119');
  });

  it('keeps answering from memory while Redis is unreachable', async () => {
    const counters = await Counters.create('redis://127.0.0.1:1', 'unreachable');
    const limiter = new EdgeRateLimiter(counters, LIMITS);
    const verdicts = await calls(limiter, credential('key-offline'), 3);
    expect(verdicts.map((v) => v.headers['x-ratelimit-remaining'])).toEqual(['119', '118', '117']);
    await counters.close();
  });

  it('keeps answering from memory while Redis holds its commands unanswered', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const counters = await Counters.create(`redis://127.0.0.1:${port}`, 'silent');
    const limiter = new EdgeRateLimiter(counters, LIMITS);
    const verdicts = await calls(limiter, credential('key-silent'), 2);
    expect(verdicts.map((v) => v.headers['x-ratelimit-remaining'])).toEqual(['119', '118']);
    await counters.close();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});
