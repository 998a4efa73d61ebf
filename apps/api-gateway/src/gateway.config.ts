import { type ConfigOf, env, publicUrlsSpec, trustProxyField } from '#libs/config';
import { edgeLimitsSpec } from '#libs/edge';
import { retentionHours } from '#libs/runtime';

export const gatewaySpec = {
  ...publicUrlsSpec,
  ...edgeLimitsSpec,
  trustProxy: trustProxyField(),
  /** Checks X-Twilio-Signature on the inbound SMS webhook; without it every inbound request is refused. */
  twilioAuthToken: env.optionalString('TWILIO_AUTH_TOKEN'),
  /** The mailbox at /mailbox: every stored email, with no sign-in. Local runs only (the local launchers turn it on). */
  mailboxPage: env.bool('MAILBOX_PAGE', false),
  /** Idempotency records are deleted this long after they expired (24 h after their first request). */
  idempotencyRetentionHours: retentionHours('RETENTION_IDEMPOTENCY_EXPIRED_HOURS', 1, 0),
};

export type GatewayConfig = ConfigOf<typeof gatewaySpec>;
