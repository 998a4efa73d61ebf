export { ConfigError, FieldProblem, env, loadConfig, type ConfigOf, type ConfigSpec, type Env, type Field } from './env.js';
export {
  DEFAULT_ANON_LIMITS, DEFAULT_SIGNUPS_PER_DAY, DEFAULT_TIER_LIMITS, TIERS, anonLimitsField, isTier, signupsPerDayField, tierLimitsField,
  type AnonLimits, type Tier, type TierLimits,
} from './tiers.js';
export {
  APP_NAMES, DEFAULT_PORTS, httpTimeoutsSpec, infrastructureSpec, listenSpec, loadHttpTimeouts, natsAuthOf, natsAuthSpec, publicUrlsSpec, tracingSpec, trustProxyField,
  type AppName, type HttpTimeouts, type PublicUrls, type TrustProxy,
} from './common.js';
