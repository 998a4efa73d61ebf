import { type ConfigOf, env, tierLimitsField } from '#libs/config';
import { retentionHours } from '#libs/runtime';

/** The retry delays after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,14h,20h,24h';

export const webhooksSpec = {
  /** Base64 of 32 bytes: seals the endpoints' signing secrets at rest. */
  secretKey: env.secretKey('WEBHOOK_SECRET_KEY'),
  /** Local development only: allow http and loopback, private and link-local targets. */
  allowPrivateUrls: env.bool('WEBHOOK_ALLOW_PRIVATE_URLS', false),
  /** A delivery that has no 2xx answer within this time has failed. */
  timeoutMs: env.int('WEBHOOK_TIMEOUT_MS', 15_000, { min: 100, max: 60_000 }),
  retrySchedule: env.durations('WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE),
  /** Consecutive failed attempts that pause an endpoint. */
  pauseAfter: env.int('WEBHOOK_PAUSE_AFTER', 50, { min: 1 }),
  /** How often an idle worker looks for due attempts. */
  pollMs: env.int('WEBHOOK_POLL_MS', 250, { min: 10, max: 60_000 }),
  tierLimits: tierLimitsField(),
  /** Finished deliveries (their payloads hold participants' emails and phones) are deleted this long after they were created. */
  deliveriesRetentionHours: retentionHours('RETENTION_DELIVERIES_HOURS', 720),
  /** The event log (its entries hold participants' names, emails and phones) keeps events this long after they happened. */
  eventLogRetentionHours: retentionHours('RETENTION_EVENT_LOG_HOURS', 720),
};

export type WebhooksConfig = ConfigOf<typeof webhooksSpec>;
