import autocannon, { type Client, type Request } from 'autocannon';
import { percentile, round, sortedSamples } from './stats.js';

/** One timed run of a scenario. */
export interface Measurement {
  requestsPerSecond: number;
  /** Latency percentiles in ms, from every answered request (2xx or not). */
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Requests not answered with the expected status: other statuses, socket errors and timeouts. */
  errors: number;
  durationMs: number;
  /** Scenario-specific figures (confirmed places, deliveries per second…). */
  extra?: Record<string, number>;
  /** CPU milliseconds per request (per delivery for webhooks), by process group (see CpuMeter). */
  cpuMs?: Record<string, number>;
}

export interface HttpLoad {
  url: string;
  connections: number;
  /** Seconds; or `amount` requests in all. */
  duration?: number;
  amount?: number;
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  /** Each request's path (defaults to the url's) and JSON body (none for a DELETE), built per request. */
  request?: () => { path?: string; body?: string };
  /** Headers of each connection, set once when it opens. */
  connectionHeaders?: (connection: number) => Record<string, string>;
  /** The statuses that count as answered well; any other is an error. */
  expectStatus: readonly number[];
  /** Called with each answer's status and body, when reading bodies is needed. */
  onBody?: (status: number, body: string) => void;
}

/**
 * Runs autocannon against one URL. Latencies are taken from autocannon's per-response timings
 * (sub-millisecond, unlike its histogram's whole milliseconds).
 */
export async function runHttp(load: HttpLoad): Promise<Measurement> {
  const latencies: number[] = [];
  let unexpected = 0;
  let connections = 0;
  const method = load.method ?? 'GET';
  const headers = { ...load.headers, ...(load.request && method !== 'DELETE' && { 'content-type': 'application/json' }) };
  const request: Request = {
    method,
    headers,
    ...(load.request && {
      setupRequest: (req: Request) => ({ ...req, ...load.request!() }),
    }),
    ...(load.onBody && {
      onResponse: (status: number, body: string) => load.onBody!(status, body),
    }),
  };
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: load.url,
        connections: load.connections,
        ...(load.amount !== undefined ? { amount: load.amount } : { duration: load.duration ?? 10 }),
        timeout: 10,
        requests: [request],
        ...(load.connectionHeaders && {
          setupClient: (client: Client) => client.setHeaders({ ...headers, ...load.connectionHeaders!(connections++) }),
        }),
      },
      (err, finished) => (err ? reject(err) : resolve(finished)),
    );
    instance.on('response', (_client: Client, status: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
      if (!load.expectStatus.includes(status)) unexpected += 1;
    });
  });
  // autocannon's errors count its timeouts too.
  return measurement(latencies, latencies.length, performance.now() - started, unexpected + result.errors);
}

/** A measurement of `count` operations over `durationMs`, with the latency percentiles of `latencies` (ms). */
export function measurement(latencies: number[], count: number, durationMs: number, errors: number): Measurement {
  const sorted = sortedSamples(latencies);
  return {
    requestsPerSecond: round(count / (durationMs / 1000), 0),
    p50Ms: round(percentile(sorted, 0.5), 3),
    p99Ms: round(percentile(sorted, 0.99), 3),
    requests: count,
    errors,
    durationMs: round(durationMs, 0),
  };
}

/** A client address of its own for connection or request `n` (TRUST_PROXY is on): each is its own anonymous caller. */
export function clientAddress(n: number): string {
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}
