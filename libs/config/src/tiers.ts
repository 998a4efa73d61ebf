import { env, type Field } from './env.js';

export const TIERS = ['free', 'pro', 'org'] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export interface TierLimits {
  requestsPerMinute: number;
  webhookEndpoints: number;
  aiDraftsPerMonth: number;
  smsPerDay: number;
  emailsPerDay: number;
}

export interface AnonLimits {
  readsPerMinute: number;
  writesPerMinute: number;
  perDay: number;
}

export const DEFAULT_TIER_LIMITS: Readonly<Record<Tier, TierLimits>> = {
  free: { requestsPerMinute: 120, webhookEndpoints: 1, aiDraftsPerMonth: 3, smsPerDay: 0, emailsPerDay: 200 },
  pro: { requestsPerMinute: 600, webhookEndpoints: 10, aiDraftsPerMonth: 100, smsPerDay: 200, emailsPerDay: 5000 },
  org: { requestsPerMinute: 3000, webhookEndpoints: 100, aiDraftsPerMonth: 1000, smsPerDay: 5000, emailsPerDay: 50000 },
};

export const DEFAULT_ANON_LIMITS: Readonly<AnonLimits> = { readsPerMinute: 60, writesPerMinute: 6, perDay: 200 };

function nonNegativeIntegers(value: unknown, keys: readonly string[]): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a JSON object';
  for (const [key, n] of Object.entries(value)) {
    if (!keys.includes(key)) return `has unknown key "${key}" (known: ${keys.join(', ')})`;
    if (!Number.isInteger(n) || (n as number) < 0) return `${key} must be a non-negative integer`;
  }
  return undefined;
}

const TIER_LIMIT_KEYS = Object.keys(DEFAULT_TIER_LIMITS.free);

/** TIER_LIMITS: a JSON object of partial overrides per tier, e.g. {"free":{"webhookEndpoints":2}}. */
export function tierLimitsField(): Field<Record<Tier, TierLimits>> {
  const parsed = env.json<Partial<Record<Tier, Partial<TierLimits>>>>('TIER_LIMITS', {}, (value) => {
    const top = nonNegativeIntegers(Object.fromEntries(Object.keys(value as object).map((k) => [k, 0])), TIERS);
    if (top) return top;
    for (const [tier, limits] of Object.entries(value as object)) {
      const problem = nonNegativeIntegers(limits, TIER_LIMIT_KEYS);
      if (problem) return `.${tier} ${problem}`;
    }
    return undefined;
  });
  return {
    ...parsed,
    read(raw) {
      const overrides = parsed.read(raw);
      return Object.fromEntries(TIERS.map((t) => [t, { ...DEFAULT_TIER_LIMITS[t], ...overrides[t] }])) as Record<Tier, TierLimits>;
    },
  };
}

/** ANON_LIMITS: partial overrides of the anonymous per-IP budgets. */
export function anonLimitsField(): Field<AnonLimits> {
  const parsed = env.json<Partial<AnonLimits>>('ANON_LIMITS', {}, (value) => nonNegativeIntegers(value, Object.keys(DEFAULT_ANON_LIMITS)));
  return { ...parsed, read: (raw) => ({ ...DEFAULT_ANON_LIMITS, ...parsed.read(raw) }) };
}

/** SIGNUPS_PER_DAY: signups an organization may create per UTC day, across all its credentials. */
export const DEFAULT_SIGNUPS_PER_DAY = 50;

export function signupsPerDayField(): Field<number> {
  return env.int('SIGNUPS_PER_DAY', DEFAULT_SIGNUPS_PER_DAY, { min: 0 });
}
