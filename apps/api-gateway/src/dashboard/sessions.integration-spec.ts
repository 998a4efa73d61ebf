import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { MemorySessionStore, RedisSessionStore, type SessionStore } from './session-store.js';
import { DashboardSessions, type Tokens } from './sessions.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const tokens = (name: string, expiresInMs: number): Tokens => ({
  accessToken: `oat_${name}`,
  refreshToken: `ort_${name}`,
  expiresAt: Date.now() + expiresInMs,
});

describe.each([
  ['Redis', () => RedisSessionStore.connect(REDIS_URL)],
  ['memory', async () => new MemorySessionStore()],
])('dashboard sessions in %s', (_name, open: () => Promise<SessionStore>) => {
  let store: SessionStore;
  let sessions: DashboardSessions;

  beforeAll(async () => {
    store = await open();
    sessions = new DashboardSessions(store, false);
  });

  afterAll(() => store.close());

  it('gives the access token of a live session, and nothing for an unknown or malformed cookie', async () => {
    const value = await sessions.create(tokens('live', 3_600_000));
    let refreshed = 0;
    const refresh = async () => {
      refreshed++;
      return undefined;
    };
    await expect(sessions.accessToken(value, refresh)).resolves.toBe('oat_live');
    await expect(sessions.accessToken(`${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`, refresh)).resolves.toBeUndefined();
    await expect(sessions.accessToken('not a cookie', refresh)).resolves.toBeUndefined();
    await expect(sessions.accessToken(undefined, refresh)).resolves.toBeUndefined();
    expect(refreshed).toBe(0);
  });

  it('refreshes a token about to end once, however many requests need it at the same time', async () => {
    const value = await sessions.create(tokens('old', 10_000));
    let uses = 0;
    const refresh = async (refreshToken: string) => {
      expect(refreshToken).toBe('ort_old');
      uses++;
      await sleep(50);
      return tokens('new', 3_600_000);
    };
    const answers = await Promise.all(Array.from({ length: 8 }, () => sessions.accessToken(value, refresh)));
    expect(answers).toEqual(Array(8).fill('oat_new'));
    expect(uses).toBe(1);
    await expect(sessions.accessToken(value, refresh)).resolves.toBe('oat_new');
  });

  it('ends the session when the refresh is refused (the grant was revoked)', async () => {
    const value = await sessions.create(tokens('revoked', 0));
    await expect(sessions.accessToken(value, async () => undefined)).resolves.toBeUndefined();
    await expect(sessions.exists(value)).resolves.toBe(false);
  });

  it('ends a session: its cookie opens nothing after, and the refresh token comes back to be revoked', async () => {
    const value = await sessions.create(tokens('ended', 3_600_000));
    await expect(sessions.end(value)).resolves.toBe('ort_ended');
    await expect(sessions.exists(value)).resolves.toBe(false);
    await expect(sessions.end(value)).resolves.toBeUndefined();
  });

  it('hands a pending sign-in back once, to one of two callbacks at the same time, and only for its state', async () => {
    const value = await sessions.beginSignIn({ state: 's', verifier: 'v', returnTo: '/app/signups' });
    await expect(sessions.takeSignIn(value, 'another')).resolves.toBeUndefined();
    await expect(sessions.takeSignIn(value, undefined)).resolves.toBeUndefined();
    const taken = await Promise.all([sessions.takeSignIn(value, 's'), sessions.takeSignIn(value, 's')]);
    expect(taken.filter(Boolean)).toEqual([{ state: 's', verifier: 'v', returnTo: '/app/signups' }]);
    await expect(sessions.takeSignIn(value, 's')).resolves.toBeUndefined();
  });

  it('does not bring back a session signed out while its token was being refreshed', async () => {
    const value = await sessions.create(tokens('racing', 0));
    const refresh = async () => {
      await sessions.end(value);
      return tokens('too-late', 3_600_000);
    };
    await expect(sessions.accessToken(value, refresh)).resolves.toBeUndefined();
    await expect(sessions.exists(value)).resolves.toBe(false);
  });

  it('ties the CSRF token to the session cookie', async () => {
    const one = await sessions.create(tokens('a', 3_600_000));
    const two = await sessions.create(tokens('b', 3_600_000));
    expect(sessions.csrfValid(one, sessions.csrf(one))).toBe(true);
    expect(sessions.csrfValid(one, sessions.csrf(two))).toBe(false);
    expect(sessions.csrfValid(one, undefined)).toBe(false);
    expect(sessions.csrfValid(undefined, sessions.csrf(one))).toBe(false);
  });
});

describe('dashboard sessions at rest in Redis', () => {
  it('keeps neither the cookie nor a token readable: the key is a hash, the value sealed under a key from the cookie', async () => {
    const store = await RedisSessionStore.connect(REDIS_URL);
    const redis = new Redis(REDIS_URL);
    try {
      const value = await new DashboardSessions(store, false).create(tokens('secret-token', 3_600_000));
      const keys = await redis.keys('dashboard:session:*');
      const stored = await Promise.all(keys.map((key) => redis.get(key)));
      expect(keys.some((key) => key.includes(value))).toBe(false);
      expect(stored.join('\n')).not.toContain('secret-token');
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
      await store.close();
    }
  });

  it('lets one holder at a time run under a lock shared by two connections (two replicas)', async () => {
    const [a, b] = await Promise.all([RedisSessionStore.connect(REDIS_URL), RedisSessionStore.connect(REDIS_URL)]);
    try {
      let running = 0;
      let most = 0;
      const task = async () => {
        most = Math.max(most, ++running);
        await sleep(20);
        running--;
      };
      await Promise.all([a, b, a, b].map((store) => store.exclusive('dashboard:lock-test', task)));
      expect(most).toBe(1);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
