import { anonLimitsField, env, tierLimitsField } from '#libs/config';

/** The limits of an edge (gateway, mcp-server): budgets from TIER_LIMITS and ANON_LIMITS, and where the counters live. */
export const edgeLimitsSpec = {
  tierLimits: tierLimitsField(),
  anonLimits: anonLimitsField(),
  /** Namespace of the counters in Redis; edges sharing it share every budget (the default does). */
  rateLimitPrefix: env.string('RATE_LIMIT_PREFIX', 'ratelimit'),
};
