import { isIP } from 'node:net';
import { ConfigError, type ConfigOf, type Env, env, type Field, FieldProblem, loadConfig } from './env.js';

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

/**
 * The app's own NATS credentials and TLS (see docs/deploy.md, "NATS"). <APP>_NATS_USER and
 * <APP>_NATS_PASSWORD (e.g. SIGNUPS_SERVICE_NATS_PASSWORD) win over NATS_USER and NATS_PASSWORD,
 * so one environment can hold every app's. Without a user the connection is anonymous, as a
 * server without authorization expects. NATS_CA_FILE (or a tls:// NATS_URL) requires TLS.
 */
export function natsAuthSpec(app: string) {
  const prefix = app.toUpperCase().replaceAll('-', '_');
  return {
    appUser: env.optionalString(`${prefix}_NATS_USER`),
    appPassword: env.optionalString(`${prefix}_NATS_PASSWORD`),
    user: env.optionalString('NATS_USER'),
    password: env.optionalString('NATS_PASSWORD'),
    caFile: env.optionalString('NATS_CA_FILE'),
  } as const;
}

/** What NatsBus.connect takes from natsAuthSpec: the credentials when a user is set, TLS when a CA file is. */
export function natsAuthOf(config: ConfigOf<ReturnType<typeof natsAuthSpec>>): {
  credentials?: { user: string; password: string };
  tls?: { caFile: string };
} {
  const user = config.appUser ?? config.user;
  const password = config.appUser !== undefined ? config.appPassword : (config.appPassword ?? config.password);
  if (user !== undefined && password === undefined) throw new ConfigError([`a NATS user (${user}) needs its password`]);
  return {
    ...(user !== undefined && password !== undefined && { credentials: { user, password } }),
    ...(config.caFile !== undefined && { tls: { caFile: config.caFile } }),
  };
}

/**
 * OpenTelemetry traces, by the standard OTEL_* variables. Spans are exported over OTLP/HTTP
 * once an endpoint is set (and OTEL_TRACES_EXPORTER is not none); without one the trace
 * context still travels across HTTP and NATS, so a caller's traceparent reaches every hop.
 */
const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

export const tracingSpec = {
  sdkDisabled: env.bool('OTEL_SDK_DISABLED', false),
  tracesExporter: env.oneOf('OTEL_TRACES_EXPORTER', ['otlp', 'none'], 'otlp'),
  endpoint: env.optionalUrl('OTEL_EXPORTER_OTLP_ENDPOINT'),
  tracesEndpoint: env.optionalUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
  protocol: env.oneOf('OTEL_EXPORTER_OTLP_PROTOCOL', OTLP_PROTOCOLS, 'http/protobuf'),
  tracesProtocol: env.optionalOneOf('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', OTLP_PROTOCOLS),
  serviceName: env.optionalString('OTEL_SERVICE_NAME'),
} as const;

/** The public addresses of the surfaces (see API decisions, "URLs and ports"). */
export const publicUrlsSpec = {
  publicBaseUrl: env.url('PUBLIC_BASE_URL', 'http://localhost:3000/api/v1'),
  authUrl: env.url('AUTH_URL', 'http://localhost:3001'),
  mcpUrl: env.url('MCP_URL', 'http://localhost:3002/mcp'),
  problemBase: env.url('PROBLEM_BASE', 'http://localhost:3000/problems'),
} as const;

export type PublicUrls = ConfigOf<typeof publicUrlsSpec>;

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

/**
 * The timeouts of every HTTP listener, against clients that send slowly or not at all (see
 * docs/decisions.md, "Slow clients"). As Node's HTTP server counts them:
 * - headers: from a request's first byte (a connection's opening, for its first request) until
 *   its headers are in;
 * - request: from the same start until its body is in; the answer may take as long as it needs;
 * - keep-alive: how long a connection may stay idle between requests, above the idle timeout of
 *   the proxies in front (60 s for ingress-nginx's upstream connections and AWS load balancers).
 * None can be turned off: 0 is refused.
 */
export const httpTimeoutsSpec = {
  headersTimeoutMs: env.int('HTTP_HEADERS_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
  requestTimeoutMs: env.int('HTTP_REQUEST_TIMEOUT_MS', 30_000, { min: 100, max: 300_000 }),
  keepAliveTimeoutMs: env.int('HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, { min: 1_000, max: 900_000 }),
} as const;

export type HttpTimeouts = ConfigOf<typeof httpTimeoutsSpec>;

/** Reads httpTimeoutsSpec and checks that the headers timeout fits in the request timeout, which counts the headers too. */
export function loadHttpTimeouts(source: Env): HttpTimeouts {
  const timeouts = loadConfig(httpTimeoutsSpec, source);
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) {
    throw new ConfigError([
      `HTTP_HEADERS_TIMEOUT_MS (${timeouts.headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${timeouts.requestTimeoutMs}), which counts the headers too`,
    ]);
  }
  return timeouts;
}

/** What the edges hand to Fastify's trustProxy: trust no proxy, every proxy, or the proxies at these addresses. */
export type TrustProxy = boolean | string[];

function isAddressOrRange(value: string): boolean {
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !address || !isIP(address)) return false;
  if (bits === undefined) return true;
  const max = isIP(address) === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * TRUST_PROXY: whether the client address comes from X-Forwarded-For. false (default): the
 * peer's address. A comma-separated list of addresses or CIDR ranges: the proxies there are
 * believed, hop by hop from the peer. true: every hop is (only behind a proxy that overwrites the
 * header). Fastify refuses hop counts, so a number other than 1/0 (true/false) is refused too.
 */
export function trustProxyField(): Field<TrustProxy> {
  const flag = env.bool('TRUST_PROXY', false);
  return {
    name: 'TRUST_PROXY',
    read(raw) {
      const value = raw?.trim() ?? '';
      if (value === '' || !/[.:]/.test(value)) return flag.read(raw);
      const proxies = value.split(',').map((part) => part.trim());
      const bad = proxies.find((part) => !isAddressOrRange(part));
      if (bad !== undefined) {
        throw new FieldProblem(`TRUST_PROXY must be true, false or a list of proxy addresses or CIDR ranges (got "${bad}")`);
      }
      return proxies;
    },
  };
}
