import type { AnonLimits, Tier, TierLimits } from '#libs/config';
import { type Principal, SECONDS_PER_DAY, utcDay } from '#libs/contracts';
import type { Counter, Metrics } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { addressKey } from './client-address.js';
import type { Counters } from './counters.js';
import { type LimitPolicy, type PolicyState, rateLimitHeaders, retryAfterSeconds } from './limit-policy.js';

export interface EdgeLimits {
  tierLimits: Record<Tier, TierLimits>;
  anonLimits: AnonLimits;
}

/** Who is calling: a credential (limited per credential by its tier) or nobody (limited per client IP). */
export interface LimitedCall {
  principal?: Pick<Principal, 'credentialId' | 'tier'>;
  ip: string;
  /** POST, PATCH, DELETE and the like; anonymous writes have their own, smaller budget. */
  write: boolean;
}

/** This call's standing: the response headers, and the problem to answer when it is refused. */
export interface LimitVerdict {
  headers: Record<string, string>;
  refusal?: ProblemError;
}

const MINUTE = 60;

interface Counted {
  policy: LimitPolicy;
  key: string;
  /** The window the counter keeps (the rest of the UTC day for daily policies). */
  ttlSeconds: number;
}

/**
 * The per-minute and per-day budgets of an edge (contract "Limits"): per credential by its
 * organization's tier, per IP for anonymous calls (reads and writes apart, and a daily total).
 * Counts are shared by every replica through the counters' store; a refused call is taken back
 * from every policy, so only served calls use a budget.
 */
export class EdgeRateLimiter {
  private readonly rejections?: Counter<'policy'>;

  constructor(
    private readonly counters: Counters,
    private readonly limits: EdgeLimits,
    metrics?: Pick<Metrics, 'counter'>,
  ) {
    this.rejections = metrics?.counter(
      'rate_limit_rejections_total',
      'Calls refused with rate_limited, by exhausted policy (a call refused by two counts under each)',
      ['policy'],
    );
  }

  async check(call: LimitedCall, now = Date.now()): Promise<LimitVerdict> {
    const counted = this.policiesOf(call, now);
    const counts = await Promise.all(counted.map(({ key, ttlSeconds }) => this.counters.hit(key, ttlSeconds)));
    const states: PolicyState[] = counted.map(({ policy }, i) => ({
      policy,
      remaining: Math.max(0, policy.quota - counts[i]!.consumed),
      resetAt: now + counts[i]!.msBeforeReset,
    }));
    const exhausted = states.filter((_, i) => counts[i]!.consumed > counted[i]!.policy.quota);
    if (exhausted.length === 0) return { headers: rateLimitHeaders(states, now) };

    for (const { policy } of exhausted) this.rejections?.inc({ policy: policy.name });
    // A refused call uses no budget: every policy gives it back.
    await Promise.all(counted.map(({ key, ttlSeconds }) => this.counters.unhit(key, ttlSeconds)));
    for (const state of states) if (!exhausted.includes(state)) state.remaining = Math.min(state.policy.quota, state.remaining + 1);
    const retryAfter = retryAfterSeconds(exhausted, now);
    const names = exhausted.map(({ policy }) => describe(policy)).join(' and ');
    return {
      headers: rateLimitHeaders(states, now),
      refusal: new ProblemError('rate_limited', `Rate limit exceeded: ${names}. Retry after ${retryAfter} seconds.`, {
        headers: { 'retry-after': String(retryAfter) },
      }),
    };
  }

  private policiesOf(call: LimitedCall, now: number): Counted[] {
    if (call.principal) {
      const quota = this.limits.tierLimits[call.principal.tier].requestsPerMinute;
      return [
        {
          policy: { name: 'credential', quota, windowSeconds: MINUTE },
          key: `credential:${call.principal.credentialId}`,
          ttlSeconds: MINUTE,
        },
      ];
    }
    const { readsPerMinute, writesPerMinute, perDay } = this.limits.anonLimits;
    const { day, secondsLeft } = utcDay(now);
    const kind = call.write ? 'writes' : 'reads';
    const address = addressKey(call.ip);
    return [
      {
        policy: { name: `anonymous-${kind}`, quota: call.write ? writesPerMinute : readsPerMinute, windowSeconds: MINUTE },
        key: `ip:${address}:${kind}`,
        ttlSeconds: MINUTE,
      },
      {
        policy: { name: 'anonymous-day', quota: perDay, windowSeconds: SECONDS_PER_DAY },
        key: `ip:${address}:day:${day}`,
        ttlSeconds: secondsLeft,
      },
    ];
  }
}

function describe(policy: LimitPolicy): string {
  const per = policy.windowSeconds === SECONDS_PER_DAY ? 'per UTC day' : 'per minute';
  const whose = policy.name === 'credential' ? 'for this credential' : 'for this client address';
  const what = policy.name === 'anonymous-writes' ? 'writes' : policy.name === 'anonymous-reads' ? 'reads' : 'requests';
  return `${policy.quota} ${what} ${per} ${whose}`;
}
