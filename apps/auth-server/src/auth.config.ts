import { env, loadConfig, type ConfigOf, type Env } from '#libs/config';

export const authConfigSpec = {
  /** Bearer token of the operators' admin API (and the admin CLI). */
  adminToken: env.secret('ADMIN_TOKEN'),
};

export type AuthConfig = ConfigOf<typeof authConfigSpec>;

export const AUTH_CONFIG = Symbol('AUTH_CONFIG');

/** Fails with a ConfigError naming every missing or bad variable. */
export function loadAuthConfig(source: Env): AuthConfig {
  return loadConfig(authConfigSpec, source);
}
