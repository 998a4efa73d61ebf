import type { OnModuleDestroy } from '@nestjs/common';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { addressKey } from '#libs/edge';

/**
 * Failed sign-ins allowed within the window: per account and client IP pair, and per client IP
 * whichever accounts it names. An account past `accountFailures` from all IPs together is
 * slowed, not locked: one attempt every `slowedAccountSeconds` from anywhere, so nobody can
 * keep its owner out by guessing wrong on purpose.
 */
export const LOGIN_LIMITS = {
  pairFailures: 5,
  ipFailures: 20,
  accountFailures: 20,
  slowedAccountSeconds: 5,
  windowSeconds: 15 * 60,
} as const;

/** Account creations tried per client IP and per email within the window, whether they succeed or not. */
export const SIGNUP_LIMITS = { perIp: 5, perEmail: 3, windowSeconds: 3600 } as const;

/**
 * Account emails asked for within the window, per address and per client IP, whether an account
 * exists or not: verification links sent again, and password reset links.
 */
export const ACCOUNT_EMAIL_LIMITS = { perEmail: 3, perIp: 10, windowSeconds: 3600 } as const;

/** The window of OAuth client registrations per client IP (their number is OAUTH_REGISTRATIONS_PER_HOUR). */
export const REGISTRATION_WINDOW_SECONDS = 3600;

/** Whether a sign-in or signup may be tried now; when not, how long until it may. */
export type LoginAllowance = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type Counted = [RateLimiterAbstract, string][];

function accountKey(email: string): string {
  return email.trim().toLowerCase();
}

function refusal(res: RateLimiterRes): LoginAllowance {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}

/** Takes a point of each (limiter, key) at once; when any refuses, the others' are given back and the longest wait answered. */
async function consumeAll(counted: Counted): Promise<LoginAllowance> {
  const results = await Promise.allSettled(counted.map(([limiter, key]) => limiter.consume(key)));
  const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (refused.length === 0) return { allowed: true };
  const failure = refused.find((reason) => !(reason instanceof RateLimiterRes));
  if (failure) throw failure;
  await giveBack(counted.filter((_, i) => results[i]?.status === 'fulfilled'));
  const longest = refused.reduce((a, b) => ((a as RateLimiterRes).msBeforeNext >= (b as RateLimiterRes).msBeforeNext ? a : b));
  return refusal(longest as RateLimiterRes);
}

async function giveBack(counted: Counted): Promise<void> {
  await Promise.all(counted.map(([limiter, key]) => limiter.reward(key)));
}

/** Takes a point, answering the refusal instead of throwing it. */
async function take(limiter: RateLimiterAbstract, key: string): Promise<LoginAllowance> {
  try {
    await limiter.consume(key);
    return { allowed: true };
  } catch (err) {
    if (err instanceof RateLimiterRes) return refusal(err);
    throw err;
  }
}

/**
 * Client addresses are counted as the edges count them (addressKey): an IPv4 address, or the /64
 * of an IPv6 one, which a single host commonly holds whole.
 *
 * Counts sign-ins on every login page (OAuth interaction and account pages share it), account
 * creations and OAuth client registrations, in Redis when the app has one (shared by replicas), in memory otherwise.
 * A refused attempt is answered before any password is hashed or checked.
 */
export class LoginLimiter implements OnModuleDestroy {
  private constructor(
    private readonly limiters: Record<
      | 'byPair'
      | 'byIp'
      | 'byAccount'
      | 'slowedAccount'
      | 'signupByIp'
      | 'signupByEmail'
      | 'registrations'
      | 'resendByIp'
      | 'resendByEmail'
      | 'resetByIp'
      | 'resetByEmail',
      RateLimiterAbstract
    >,
    private readonly redis?: Redis,
  ) {}

  /** `prefix` namespaces the Redis keys (`<prefix>:pair:…`, `<prefix>:ip:…` and so on). */
  static create(redisUrl: string | undefined, prefix: string, registrationsPerHour: number): LoginLimiter {
    const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 2 }) : undefined;
    const limiter = (name: string, points: number, duration: number): RateLimiterAbstract => {
      const keyPrefix = `${prefix}:${name}`;
      return redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    };
    const window = LOGIN_LIMITS.windowSeconds;
    return new LoginLimiter(
      {
        byPair: limiter('pair', LOGIN_LIMITS.pairFailures, window),
        byIp: limiter('ip', LOGIN_LIMITS.ipFailures, window),
        byAccount: limiter('account', LOGIN_LIMITS.accountFailures, window),
        slowedAccount: limiter('slowed', 1, LOGIN_LIMITS.slowedAccountSeconds),
        signupByIp: limiter('signup-ip', SIGNUP_LIMITS.perIp, SIGNUP_LIMITS.windowSeconds),
        signupByEmail: limiter('signup-email', SIGNUP_LIMITS.perEmail, SIGNUP_LIMITS.windowSeconds),
        registrations: limiter('registration', registrationsPerHour, REGISTRATION_WINDOW_SECONDS),
        resendByIp: limiter('resend-ip', ACCOUNT_EMAIL_LIMITS.perIp, ACCOUNT_EMAIL_LIMITS.windowSeconds),
        resendByEmail: limiter('resend-email', ACCOUNT_EMAIL_LIMITS.perEmail, ACCOUNT_EMAIL_LIMITS.windowSeconds),
        resetByIp: limiter('reset-ip', ACCOUNT_EMAIL_LIMITS.perIp, ACCOUNT_EMAIL_LIMITS.windowSeconds),
        resetByEmail: limiter('reset-email', ACCOUNT_EMAIL_LIMITS.perEmail, ACCOUNT_EMAIL_LIMITS.windowSeconds),
      },
      redis,
    );
  }

  /**
   * Counts this sign-in as a failure before its password is checked, atomically, so parallel
   * attempts cannot slip past a limit; `succeeded` takes it back. Refused when the pair or the
   * IP has no attempt left, or the account is slowed and its next slot is not yet due (nothing
   * is then counted).
   */
  async attempt(email: string, address: string): Promise<LoginAllowance> {
    const account = accountKey(email);
    const ip = addressKey(address);
    const counted: Counted = [[this.limiters.byIp, ip]];
    if (account) counted.push([this.limiters.byPair, this.pair(account, ip)]);
    const allowance = await consumeAll(counted);
    if (!allowance.allowed || !account) return allowance;
    if ((await take(this.limiters.byAccount, account)).allowed) return allowance;
    const slowed = await take(this.limiters.slowedAccount, account);
    // A refused slot still costs the IP its attempt (not the pair): polling for the slot burns a
    // guesser's budget, while the owner waiting the few seconds asked loses nothing.
    if (!slowed.allowed) await giveBack([[this.limiters.byPair, this.pair(account, ip)]]);
    return slowed;
  }

  /** A successful sign-in: the pair's failures are forgotten, and this attempt is no failure of the IP or the account. */
  async succeeded(email: string, address: string): Promise<void> {
    const account = accountKey(email);
    const ip = addressKey(address);
    const { byPair, byIp, byAccount } = this.limiters;
    await Promise.all([byPair.delete(this.pair(account, ip)), byIp.reward(ip), byAccount.reward(account)]);
  }

  /** Counts an account creation for the client IP and the email, before the password is hashed. */
  signup(email: string, address: string): Promise<LoginAllowance> {
    return consumeAll([
      [this.limiters.signupByIp, addressKey(address)],
      [this.limiters.signupByEmail, accountKey(email)],
    ]);
  }

  /** Counts a verification email sent again, for the client IP and the address. */
  verificationResend(email: string, address: string): Promise<LoginAllowance> {
    return consumeAll([
      [this.limiters.resendByIp, addressKey(address)],
      [this.limiters.resendByEmail, accountKey(email)],
    ]);
  }

  /** Counts a password reset asked for, for the client IP and the address typed (an account or not). */
  passwordReset(email: string, address: string): Promise<LoginAllowance> {
    return consumeAll([
      [this.limiters.resetByIp, addressKey(address)],
      [this.limiters.resetByEmail, accountKey(email)],
    ]);
  }

  /** Counts an OAuth client registration (RFC 7591, anonymous) for the client IP. */
  registration(address: string): Promise<LoginAllowance> {
    return take(this.limiters.registrations, addressKey(address));
  }

  async onModuleDestroy(): Promise<void> {
    await this.redis?.quit();
  }

  private pair(account: string, ip: string): string {
    return `${ip} ${account}`;
  }
}

/** "Try again in N minutes." (or seconds, under a minute) for a wait in seconds. */
export function tooManyAttemptsMessage(retryAfterSeconds: number, what = 'failed sign-in attempts'): string {
  if (retryAfterSeconds < 60)
    return `Too many ${what}. Try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`;
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return `Too many ${what}. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
