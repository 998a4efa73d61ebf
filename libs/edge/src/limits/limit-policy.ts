/** One quota policy: `quota` calls per window of `windowSeconds`. */
export interface LimitPolicy {
  /** Its name in RateLimit-Policy and RateLimit. */
  name: string;
  quota: number;
  windowSeconds: number;
}

/** Where a caller stands in one policy after this call. */
export interface PolicyState {
  policy: LimitPolicy;
  remaining: number;
  /** When the window ends, in epoch milliseconds. */
  resetAt: number;
}

function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** The policy a client should heed: the least remaining, and of those the one that resets last. */
export function tightest(states: readonly PolicyState[]): PolicyState {
  return states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetAt > a.resetAt) ? b : a));
}

/**
 * The rate limit fields of a response: RateLimit-Policy lists every policy
 * (draft-ietf-httpapi-ratelimit-headers-10 syntax); RateLimit and the X-RateLimit-* fields
 * report the tightest one, X-RateLimit-Reset in Unix seconds.
 */
export function rateLimitHeaders(states: readonly PolicyState[], now = Date.now()): Record<string, string> {
  const tight = tightest(states);
  return {
    'ratelimit-policy': states.map(({ policy }) => `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`).join(', '),
    ratelimit: `"${tight.policy.name}";r=${tight.remaining};t=${secondsUntil(tight.resetAt, now)}`,
    'x-ratelimit-limit': String(tight.policy.quota),
    'x-ratelimit-remaining': String(tight.remaining),
    'x-ratelimit-reset': String(Math.ceil(tight.resetAt / 1000)),
  };
}

/** Seconds a refused caller waits: until every exhausted policy has a call again (at least 1). */
export function retryAfterSeconds(exhausted: readonly PolicyState[], now = Date.now()): number {
  return Math.max(1, ...exhausted.map((state) => secondsUntil(state.resetAt, now)));
}
