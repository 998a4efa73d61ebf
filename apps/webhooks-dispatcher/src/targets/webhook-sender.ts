import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, type AgentOptions, type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isForbiddenAddress } from './special-addresses.js';
import { assertPublicAddresses, bareHostname, TargetRefused } from './target-policy.js';

/** Outcome of one webhook delivery attempt; `error` is set when no usable HTTP response was obtained. */
export interface SendResult {
  status: number | null;
  body: string | null;
  latencyMs: number;
  error: string | null;
  retryAfterSeconds: number | null;
}

/** Whether the endpoint took the webhook: a 2xx answer. */
export function isSuccess(result: SendResult): boolean {
  return result.status !== null && result.status >= 200 && result.status < 300;
}

/** The error message kept on a delivery or reported by a test send: the transport error, or the HTTP status. */
export function errorMessageOf(result: SendResult): string | null {
  if (isSuccess(result)) return null;
  return result.error ?? `HTTP ${result.status}`;
}

/** Options of one webhook delivery attempt. */
export interface PostWebhookOptions {
  /** Deadline for the whole attempt, from waiting for a connection to the end of the response body, a resend included. */
  timeoutMs: number;
  /** Allow loopback/private/link-local targets (local development only). */
  allowPrivate: boolean;
  /** How many bytes of the response body to keep (default 1024). */
  maxResponseBytes?: number;
  /**
   * On a new connection of its own rather than one of the kept ones (default false): a send
   * that must not wait behind deliveries for a free connection to the same host.
   */
  ownConnection?: boolean;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024;
const USER_AGENT = 'signup-platform-webhooks/1';
/** Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name. */
const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/;
/** Connections per host at most: the delivery worker's concurrency, so its attempts never wait for one. */
const MAX_SOCKETS_PER_HOST = 16;
/** Idle connections kept per host at most. */
const MAX_FREE_SOCKETS_PER_HOST = 16;
/**
 * An idle connection is closed after this long: below common server keep-alive timeouts (Node's
 * is 5 s), so a receiver seldom closes one just as it is reused. A shorter Keep-Alive hint wins.
 */
const FREE_SOCKET_TIMEOUT_MS = 4_000;

/** Keep-alive agents by protocol and address policy, so a connection is reused only under the policy it was checked against. */
const agents = new Map<string, HttpAgent>();

/** A dns.lookup replacement that resolves the host itself and refuses forbidden addresses unless allowed. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { family: options.family, hints: options.hints, all: true, verbatim: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, []);
      try {
        if (!allowPrivate) assertPublicAddresses(addresses.map((entry) => entry.address));
      } catch (refusal) {
        return callback(refusal as TargetRefused, []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first.address, first.family);
    });
  };
}

/**
 * The keep-alive agent of a protocol and address policy. Only a new connection looks its host up,
 * so guardedLookup checks every connection once, before it is opened.
 */
function agentFor(protocol: string, allowPrivate: boolean): HttpAgent {
  const key = `${protocol}${allowPrivate ? 'private' : 'public'}`;
  let agent = agents.get(key);
  if (!agent) {
    const options: AgentOptions = {
      keepAlive: true,
      maxSockets: MAX_SOCKETS_PER_HOST,
      maxFreeSockets: MAX_FREE_SOCKETS_PER_HOST,
      timeout: FREE_SOCKET_TIMEOUT_MS,
      lookup: guardedLookup(allowPrivate),
    };
    agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Closes every kept connection (at shutdown); later sends open new ones. */
export function closeWebhookConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** A pooled keep-alive connection, or a new one of the request's own with the same address check. */
function connectionOf(url: URL, allowPrivate: boolean, pooled: boolean): Pick<RequestOptions, 'agent' | 'lookup'> {
  return pooled ? { agent: agentFor(url.protocol, allowPrivate) } : { agent: false, lookup: guardedLookup(allowPrivate) };
}

/** The refusal reason when a URL must not be contacted before any connection is attempted, else null. */
function preflightRefusal(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'url must use http or https';
  const host = bareHostname(url);
  if (!allowPrivate && isIP(host) !== 0 && isForbiddenAddress(host)) return `url points to a private address (${host})`;
  return null;
}

/** Seconds to wait from a Retry-After header value (delta-seconds or HTTP-date), or null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = HTTP_DATE_START.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** A short description of a network error. */
function describeError(err: unknown): string {
  if (err instanceof TargetRefused) return err.reason;
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return err.message || code || err.name;
  }
  return String(err);
}

/** POSTs a JSON webhook to a target, never following redirects and never throwing for network problems. */
export async function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: PostWebhookOptions,
): Promise<SendResult> {
  const started = performance.now();
  const refusal = preflightRefusal(url, options.allowPrivate);
  const fields =
    refusal !== null
      ? { error: refusal }
      : await exchange(url, headers, body, options, { pooled: !options.ownConnection, deadline: started + options.timeoutMs });
  return { status: null, body: null, error: null, retryAfterSeconds: null, ...fields, latencyMs: Math.round(performance.now() - started) };
}

/**
 * One request, answered by `deadline`. Whatever ends it before the whole response is read (a
 * timeout, an error, a body cut off at maxResponseBytes) destroys its connection, so none is
 * reused half read. A kept connection the receiver closed while it was idle is no failure of the
 * receiver: the request then goes once more on a new connection (which is never a reused one).
 */
function exchange(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: PostWebhookOptions,
  { pooled, deadline }: { pooled: boolean; deadline: number },
): Promise<Partial<SendResult>> {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return new Promise<Partial<SendResult>>((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      ...connectionOf(url, options.allowPrivate, pooled),
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        ...headers,
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    let settled = false;
    const settle = (fields: Partial<SendResult> | Promise<Partial<SendResult>>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(fields);
    };
    const timer = setTimeout(() => settle({ error: `timeout after ${options.timeoutMs} ms` }), Math.max(0, deadline - performance.now()));

    const onResponse = (res: IncomingMessage): void => {
      const status = res.statusCode ?? null;
      const retryAfterSeconds = parseRetryAfter(res.headers['retry-after']);
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = (error: string | null = null): void =>
        settle({ status, retryAfterSeconds, error, body: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        const part = chunk.subarray(0, maxBytes - kept);
        chunks.push(part);
        kept += part.length;
        if (kept >= maxBytes) finish();
      });
      res.on('end', () => finish());
      res.on('error', (err) => finish(describeError(err)));
    };

    req.on('response', onResponse);
    req.on('error', (err) => {
      // A request this attempt already gave up on (its timeout destroys it) is not resent.
      if (settled) return;
      settle(
        req.reusedSocket && isReset(err)
          ? exchange(url, headers, body, options, { pooled: false, deadline })
          : { error: describeError(err) },
      );
    });
    req.end(body);
  });
}

/** Whether an error is the connection being reset or closed under the request. */
function isReset(err: Error): boolean {
  return (err as NodeJS.ErrnoException).code === 'ECONNRESET';
}
