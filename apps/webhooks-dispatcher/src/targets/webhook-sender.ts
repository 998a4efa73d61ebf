import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { assertPublicAddresses, bareHostname, isForbiddenAddress, TargetRefused } from './target-policy.js';

/** Outcome of one webhook delivery attempt; `error` is set when no usable HTTP response was obtained. */
export interface SendResult {
  status: number | null;
  body: string | null;
  latencyMs: number;
  error: string | null;
  retryAfterSeconds: number | null;
}

/** Options of one webhook delivery attempt. */
export interface PostWebhookOptions {
  /** Deadline for the whole exchange, from connecting to the end of the response body. */
  timeoutMs: number;
  /** Allow loopback/private/link-local targets (local development only). */
  allowPrivate: boolean;
  /** How many bytes of the response body to keep (default 1024). */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024;
const USER_AGENT = 'signup-platform-webhooks/1';
/** Every HTTP-date form (IMF-fixdate, RFC 850, asctime) starts with a day name. */
const HTTP_DATE_START = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/;

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
export function postWebhook(url: URL, headers: Record<string, string>, body: string, options: PostWebhookOptions): Promise<SendResult> {
  const started = performance.now();
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const result = (fields: Partial<SendResult>): SendResult => ({
    status: null,
    body: null,
    error: null,
    retryAfterSeconds: null,
    ...fields,
    latencyMs: Math.round(performance.now() - started),
  });

  const refusal = preflightRefusal(url, options.allowPrivate);
  if (refusal !== null) return Promise.resolve(result({ error: refusal }));

  return new Promise<SendResult>((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(options.allowPrivate),
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        ...headers,
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    let settled = false;
    const settle = (fields: Partial<SendResult>): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(result(fields));
    };
    const timer = setTimeout(() => settle({ error: `timeout after ${options.timeoutMs} ms` }), options.timeoutMs);

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
    req.on('error', (err) => settle({ error: describeError(err) }));
    req.end(body);
  });
}
