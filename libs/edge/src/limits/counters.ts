import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';

/** A fixed-window count of one key: how many calls it has seen, and how long its window still runs. */
export interface Count {
  consumed: number;
  msBeforeReset: number;
}

export interface CounterLogger {
  warn(obj: object, msg: string): void;
}

/** A Redis that holds a command longer than this counts as down (a hung server must not hang requests). */
const COMMAND_TIMEOUT_MS = 250;

/** Far above any quota: the counters only count; the caller compares with the quota of the moment (tiers change). */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/** The in-memory counters of this process by prefix: edges in one process (all-in-one mode) share them as they would share Redis. */
const inMemory = new Map<string, RateLimiterMemory>();

/**
 * Fixed-window counters on rate-limiter-flexible: in Redis when the app has one (every replica
 * of every edge counts in the same keys), in memory otherwise (all-in-one mode, where the edges
 * of the process share them by prefix). Should Redis fail or hang, each replica counts in memory
 * until it is back, so a Redis outage never fails a request.
 */
export class Counters {
  private constructor(
    private readonly limiter: RateLimiterAbstract,
    private readonly redis?: Redis,
  ) {}

  /**
   * `prefix` namespaces the keys (`<prefix>:<key>`); edges that share a budget share a prefix.
   * Waits for Redis to answer, so a replica counts in the shared store from its first call.
   */
  static async create(redisUrl: string | undefined, prefix: string, logger?: CounterLogger): Promise<Counters> {
    const options = { keyPrefix: prefix, points: UNBOUNDED, duration: 60 };
    if (!redisUrl) {
      const shared = inMemory.get(prefix) ?? new RateLimiterMemory(options);
      inMemory.set(prefix, shared);
      return new Counters(shared);
    }
    // Auto-pipelining sends the checks of concurrent requests in one write: a system call per
    // check was most of a check's cost.
    const redis = new Redis(redisUrl, {
      lazyConnect: true,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      maxRetriesPerRequest: 1,
      commandTimeout: COMMAND_TIMEOUT_MS,
    });
    redis.on('error', (err: Error) => logger?.warn({ err: err.message }, 'rate limit store unavailable; counting in memory'));
    await redis.connect().catch(() => undefined);
    return new Counters(new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) }), redis);
  }

  /** Counts one call of `key` in a window of `windowSeconds` (at least 1) that starts with its first call. */
  async hit(key: string, windowSeconds: number): Promise<Count> {
    const res = await this.limiter.consume(key, 1, { customDuration: windowSeconds });
    return { consumed: res.consumedPoints, msBeforeReset: res.msBeforeNext };
  }

  /** Takes back a call counted by `hit` (one that another policy refused). */
  async unhit(key: string, windowSeconds: number): Promise<void> {
    await this.limiter.reward(key, 1, { customDuration: windowSeconds });
  }

  async close(): Promise<void> {
    if (this.redis?.status === 'ready') await this.redis.quit();
    else this.redis?.disconnect();
  }
}
