import { type AppName, DEFAULT_PORTS } from '#libs/config';

type Env = Record<string, string | undefined>;

export function portOf(app: AppName, env: Env): number {
  return Number(env[`${app.toUpperCase().replaceAll('-', '_')}_PORT`] || DEFAULT_PORTS[app]);
}

/**
 * The public URLs of a local stack, derived from the ports it listens on unless set: so the
 * printed links and every signup's publicUrl point where the apps really are.
 */
export function withLocalUrls(env: Env): Env {
  const origin = (app: AppName) => `http://localhost:${portOf(app, env)}`;
  return {
    ...env,
    PUBLIC_BASE_URL: env.PUBLIC_BASE_URL || `${origin('api-gateway')}/api/v1`,
    AUTH_URL: env.AUTH_URL || origin('auth-server'),
    MCP_URL: env.MCP_URL || `${origin('mcp-server')}/mcp`,
    PROBLEM_BASE: env.PROBLEM_BASE || `${origin('api-gateway')}/problems`,
  };
}
