const UNREACHABLE = 1_000_000;

/**
 * Rate limits no test reaches, for stacks whose tests are about something else (they call
 * from one address, often anonymously). Tests of the limits run edges at the defaults.
 */
export const RELAXED_LIMITS_ENV: Readonly<Record<string, string>> = {
  ANON_LIMITS: JSON.stringify({ readsPerMinute: UNREACHABLE, writesPerMinute: UNREACHABLE, perDay: UNREACHABLE }),
  TIER_LIMITS: JSON.stringify({
    free: { requestsPerMinute: UNREACHABLE },
    pro: { requestsPerMinute: UNREACHABLE },
    org: { requestsPerMinute: UNREACHABLE },
  }),
};
