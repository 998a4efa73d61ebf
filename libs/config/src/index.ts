export { ConfigError, env, loadConfig, type ConfigOf, type ConfigSpec, type Env, type Field } from './env.js';
export {
  DEFAULT_ANON_LIMITS, DEFAULT_TIER_LIMITS, TIERS, anonLimitsField, isTier, tierLimitsField,
  type AnonLimits, type Tier, type TierLimits,
} from './tiers.js';
export { APP_NAMES, DEFAULT_PORTS, infrastructureSpec, listenSpec, publicUrlsSpec, type AppName } from './common.js';
