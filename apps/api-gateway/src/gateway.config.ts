import { publicUrlsSpec, trustProxyField, type ConfigOf } from '#libs/config';
import { edgeLimitsSpec } from '#libs/edge';

export const gatewaySpec = {
  ...publicUrlsSpec,
  ...edgeLimitsSpec,
  trustProxy: trustProxyField(),
};

export type GatewayConfig = ConfigOf<typeof gatewaySpec>;

/** Injection token of the gateway's validated configuration. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
