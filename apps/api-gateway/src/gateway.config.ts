import { env, publicUrlsSpec, type ConfigOf } from '#libs/config';

export const gatewaySpec = {
  ...publicUrlsSpec,
  trustProxy: env.bool('TRUST_PROXY', false),
};

export type GatewayConfig = ConfigOf<typeof gatewaySpec>;

/** Injection token of the gateway's validated configuration. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
