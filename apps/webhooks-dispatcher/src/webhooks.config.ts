import { env, tierLimitsField, type ConfigOf } from '#libs/config';

export const webhooksSpec = {
  /** Base64 of 32 bytes: seals the endpoints' signing secrets at rest. */
  secretKey: env.secret('WEBHOOK_SECRET_KEY'),
  /** Local development only: allow http and loopback, private and link-local targets. */
  allowPrivateUrls: env.bool('WEBHOOK_ALLOW_PRIVATE_URLS', false),
  /** A delivery that has no 2xx answer within this time has failed. */
  timeoutMs: env.int('WEBHOOK_TIMEOUT_MS', 15_000, { min: 100, max: 60_000 }),
  tierLimits: tierLimitsField(),
};

export type WebhooksConfig = ConfigOf<typeof webhooksSpec>;

export const WEBHOOKS_CONFIG = Symbol('WEBHOOKS_CONFIG');
