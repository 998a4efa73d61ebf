import { type ConfigOf, env, publicUrlsSpec, trustProxyField } from '#libs/config';
import { retentionHours } from '#libs/runtime';

export const authConfigSpec = {
  ...publicUrlsSpec,
  /** Bearer token of the operators' admin API (and the admin CLI). */
  adminToken: env.secret('ADMIN_TOKEN'),
  /** Take the client IP (for the login rate limit) from X-Forwarded-For; only behind a proxy that sets it. */
  trustProxy: trustProxyField(),
  /** Namespace of the login rate limit's Redis keys (lets test runs share one Redis). */
  loginRateLimitPrefix: env.string('LOGIN_RATE_LIMIT_PREFIX', 'auth-login'),
  /** OAuth clients one IP may register (RFC 7591, anonymous) within an hour. */
  oauthRegistrationsPerHour: env.int('OAUTH_REGISTRATIONS_PER_HOUR', 20, { min: 1, max: 1_000_000 }),
  /** Expired OAuth rows (codes, tokens, grants, sessions, clients) are deleted this long after they expired. */
  oauthRetentionHours: retentionHours('RETENTION_OAUTH_EXPIRED_HOURS', 1, 0),
  /** Expired account page sessions, and the expired links of account emails, are deleted this long after they expired. */
  accountSessionsRetentionHours: retentionHours('RETENTION_ACCOUNT_SESSIONS_EXPIRED_HOURS', 1, 0),
};

export type AuthConfig = ConfigOf<typeof authConfigSpec>;
