import { env, publicUrlsSpec, trustProxyField, type ConfigOf } from '#libs/config';
import { retentionHours } from '#libs/runtime';
import { edgeLimitsSpec } from '#libs/edge';

export const gatewaySpec = {
  ...publicUrlsSpec,
  ...edgeLimitsSpec,
  trustProxy: trustProxyField(),
  /** Checks X-Twilio-Signature on the inbound SMS webhook; without it every inbound request is refused. */
  twilioAuthToken: env.optionalString('TWILIO_AUTH_TOKEN'),
  /** Idempotency records are deleted this long after they expired (24 h after their first request). */
  idempotencyRetentionHours: retentionHours('RETENTION_IDEMPOTENCY_EXPIRED_HOURS', 1, 0),
};

export type GatewayConfig = ConfigOf<typeof gatewaySpec>;
