import { env } from './env.js';

/** Where the shared infrastructure lives. Unset DATABASE_URL / NATS_URL / REDIS_URL select the embedded adapters in all-in-one mode. */
export const infrastructureSpec = {
  databaseUrl: env.optionalUrl('DATABASE_URL'),
  natsUrl: env.optionalUrl('NATS_URL'),
  redisUrl: env.optionalUrl('REDIS_URL'),
  /** Prefixes every NATS subject and the stream name; lets test runs share one server. */
  natsPrefix: env.string('NATS_PREFIX', ''),
  logLevel: env.oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  busTimeoutMs: env.int('BUS_TIMEOUT_MS', 5000, { min: 100, max: 120000 }),
} as const;

/** The public addresses of the surfaces (see API decisions, "URLs and ports"). */
export const publicUrlsSpec = {
  publicBaseUrl: env.url('PUBLIC_BASE_URL', 'http://localhost:3000/api/v1'),
  authUrl: env.url('AUTH_URL', 'http://localhost:3001'),
  mcpUrl: env.url('MCP_URL', 'http://localhost:3002/mcp'),
  problemBase: env.url('PROBLEM_BASE', 'http://localhost:3000/problems'),
} as const;

export const DEFAULT_PORTS = {
  'api-gateway': 3000,
  'auth-server': 3001,
  'mcp-server': 3002,
  'signups-service': 3010,
  'webhooks-dispatcher': 3011,
  'reminders-service': 3012,
} as const;

export type AppName = keyof typeof DEFAULT_PORTS;

export const APP_NAMES = Object.keys(DEFAULT_PORTS) as AppName[];

/** The HTTP listener of one app: <APP>_PORT (e.g. API_GATEWAY_PORT) or PORT, and HOST. */
export function listenSpec(app: AppName) {
  const prefix = app.toUpperCase().replaceAll('-', '_');
  return {
    port: env.int(`${prefix}_PORT`, DEFAULT_PORTS[app], { min: 0, max: 65535 }),
    host: env.string('HOST', '127.0.0.1'),
  } as const;
}
