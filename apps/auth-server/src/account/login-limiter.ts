import type { OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Failed sign-ins allowed per account (e-mail, lower-case) and per client IP within the window. */
export const LOGIN_LIMITS = { accountFailures: 5, ipFailures: 20, windowSeconds: 15 * 60 } as const;

/** Whether a sign-in may be tried now; when not, how long until it may. */
export type LoginAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

function accountKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Counts failed sign-ins on every login page (OAuth interaction and account pages share it):
 * per account and per client IP, in Redis when the app has one (shared by replicas), in
 * memory otherwise. A blocked attempt is refused before its password is checked.
 */
export class LoginLimiter implements OnModuleDestroy {
  private constructor(
    private readonly byAccount: RateLimiterAbstract,
    private readonly byIp: RateLimiterAbstract,
    private readonly redis?: Redis,
  ) {}

  /** `prefix` namespaces the Redis keys (`<prefix>:account:…`, `<prefix>:ip:…`). */
  static create(redisUrl: string | undefined, prefix: string): LoginLimiter {
    const duration = LOGIN_LIMITS.windowSeconds;
    if (!redisUrl) {
      return new LoginLimiter(
        new RateLimiterMemory({ keyPrefix: `${prefix}:account`, points: LOGIN_LIMITS.accountFailures, duration }),
        new RateLimiterMemory({ keyPrefix: `${prefix}:ip`, points: LOGIN_LIMITS.ipFailures, duration }),
      );
    }
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 2 });
    return new LoginLimiter(
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:account`, points: LOGIN_LIMITS.accountFailures, duration }),
      new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:ip`, points: LOGIN_LIMITS.ipFailures, duration }),
      redis,
    );
  }

  /**
   * Counts this attempt as a failure before its password is checked, atomically, so parallel
   * attempts cannot slip past the limit; `succeeded` takes it back. Refused when the account
   * or the IP has no attempt left (the other's count is then given back).
   */
  async attempt(email: string, ip: string): Promise<LoginAllowance> {
    const counted: [RateLimiterAbstract, string][] = [[this.byIp, ip]];
    if (email.trim()) counted.push([this.byAccount, accountKey(email)]);
    const results = await Promise.allSettled(counted.map(([limiter, key]) => limiter.consume(key)));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (refused.length === 0) return { allowed: true };
    const failure = refused.find((reason) => !(reason instanceof RateLimiterRes));
    if (failure) throw failure;
    await Promise.all(counted.filter((_, i) => results[i]?.status === 'fulfilled').map(([limiter, key]) => limiter.reward(key)));
    const wait = Math.max(...refused.map((reason) => (reason as RateLimiterRes).msBeforeNext));
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
  }

  /** A successful sign-in: the account's failures are forgotten, and this attempt is not the IP's failure. */
  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([this.byAccount.delete(accountKey(email)), this.byIp.reward(ip)]);
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis?.quit();
  }
}

/** "Try again in N minutes." for a wait in seconds. */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many failed sign-in attempts. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
