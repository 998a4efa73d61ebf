import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';

/** How long one holder may keep a lock before another may take it (a crashed holder frees it then). */
const LOCK_MS = 30_000;
/** How often a waiter looks whether the lock is free again. */
const LOCK_POLL_MS = 25;
const COMMAND_TIMEOUT_MS = 2_000;
/** How often the memory store drops what expired. */
const SWEEP_MS = 60_000;
/** Deletes the lock only if it is still the caller's (it may have expired and been taken by another). */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Where the dashboard keeps its sessions: opaque values under keys, each with a lifetime, and a
 * lock per key across every replica (the token refresh of one session runs once at a time).
 */
export interface SessionStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Sets the value only if the key still holds one (it was not deleted meanwhile); whether it did. */
  replace(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** The value, deleted in the same step: of two callers at once, one gets it. */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /** Runs `task` while no other holder of `key`'s lock runs, in this process or any other sharing the store. */
  exclusive<T>(key: string, task: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Redis, in services mode: every gateway replica sees every session. */
export class RedisSessionStore implements SessionStore {
  private constructor(private readonly redis: Redis) {}

  static async connect(redisUrl: string): Promise<RedisSessionStore> {
    const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2, commandTimeout: COMMAND_TIMEOUT_MS });
    await redis.connect();
    return new RedisSessionStore(redis);
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(key)) ?? undefined;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(key, value, 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }

  async replace(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.set(key, value, 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'XX')) === 'OK';
  }

  async take(key: string): Promise<string | undefined> {
    return (await this.redis.getdel(key)) ?? undefined;
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const lock = `${key}:lock`;
    const holder = randomBytes(16).toString('base64url');
    const giveUpAt = Date.now() + LOCK_MS;
    while ((await this.redis.set(lock, holder, 'PX', LOCK_MS, 'NX')) !== 'OK') {
      if (Date.now() > giveUpAt) throw new Error('session lock not released in time');
      await sleep(LOCK_POLL_MS);
    }
    try {
      return await task();
    } finally {
      await this.redis.eval(RELEASE, 1, lock, holder);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit();
  }
}

/** In memory, in the all-in-one mode (one process): a restart signs everyone out. */
export class MemorySessionStore implements SessionStore {
  private readonly values = new Map<string, { value: string; expiresAt: number }>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private sweptAt = Date.now();

  async get(key: string): Promise<string | undefined> {
    const entry = this.values.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    this.values.delete(key);
    return undefined;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.sweep();
    this.values.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
  }

  async replace(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    const entry = this.values.get(key);
    if (!entry || entry.expiresAt <= Date.now()) return false;
    this.values.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
    return true;
  }

  async take(key: string): Promise<string | undefined> {
    const entry = this.values.get(key);
    this.values.delete(key);
    return entry && entry.expiresAt > Date.now() ? entry.value : undefined;
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  async exclusive<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.locks.get(key) ?? Promise.resolve();
    const run = before.then(task, task);
    const settled = run.catch(() => undefined);
    this.locks.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    }
  }

  async close(): Promise<void> {
    this.values.clear();
  }

  /** Drops expired entries now and then, so sessions never signed out do not pile up. */
  private sweep(): void {
    const now = Date.now();
    if (now - this.sweptAt < SWEEP_MS) return;
    this.sweptAt = now;
    for (const [key, entry] of this.values) if (entry.expiresAt <= now) this.values.delete(key);
  }
}
