import { env, publicUrlsSpec, trustProxyField, type ConfigOf } from '#libs/config';
import { edgeLimitsSpec } from '#libs/edge';

export const gatewaySpec = {
  ...publicUrlsSpec,
  ...edgeLimitsSpec,
  trustProxy: trustProxyField(),
  /** Checks X-Twilio-Signature on the inbound SMS webhook; without it every inbound request is refused. */
  twilioAuthToken: env.optionalString('TWILIO_AUTH_TOKEN'),
};

export type GatewayConfig = ConfigOf<typeof gatewaySpec>;

/** Injection token of the gateway's validated configuration. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
