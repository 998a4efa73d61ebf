import { type ConfigOf, env, type Field, FieldProblem, tierLimitsField } from '#libs/config';
import { retentionHours } from '#libs/runtime';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;
const DURATION = /^(\d+)(ms|s|m|h)$/;

/** The retry delays after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

/** WEBHOOK_RETRY_SCHEDULE: comma-separated delays (`500ms`, `5s`, `5m`, `2h`) in milliseconds. */
function retryScheduleField(): Field<number[]> {
  return {
    name: 'WEBHOOK_RETRY_SCHEDULE',
    read(raw) {
      const value = raw?.trim() || DEFAULT_RETRY_SCHEDULE;
      return value.split(',').map((part) => {
        const match = DURATION.exec(part.trim());
        if (!match) throw new FieldProblem(`WEBHOOK_RETRY_SCHEDULE must list delays like 5s,5m,2h (got "${part.trim()}")`);
        return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
      });
    },
  };
}

export const webhooksSpec = {
  /** Base64 of 32 bytes: seals the endpoints' signing secrets at rest. */
  secretKey: env.secretKey('WEBHOOK_SECRET_KEY'),
  /** Local development only: allow http and loopback, private and link-local targets. */
  allowPrivateUrls: env.bool('WEBHOOK_ALLOW_PRIVATE_URLS', false),
  /** A delivery that has no 2xx answer within this time has failed. */
  timeoutMs: env.int('WEBHOOK_TIMEOUT_MS', 15_000, { min: 100, max: 60_000 }),
  retrySchedule: retryScheduleField(),
  /** Consecutive failed attempts that pause an endpoint. */
  pauseAfter: env.int('WEBHOOK_PAUSE_AFTER', 50, { min: 1 }),
  /** How often an idle worker looks for due attempts. */
  pollMs: env.int('WEBHOOK_POLL_MS', 250, { min: 10, max: 60_000 }),
  tierLimits: tierLimitsField(),
  /** Finished deliveries (their payloads hold participants' emails and phones) are deleted this long after they were created. */
  deliveriesRetentionHours: retentionHours('RETENTION_DELIVERIES_HOURS', 720),
};

export type WebhooksConfig = ConfigOf<typeof webhooksSpec>;
