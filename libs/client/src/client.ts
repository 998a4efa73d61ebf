import { errorOf, ProblemError, retryAfterSeconds, UnexpectedPageError, UnexpectedResponseError } from './errors.js';
import type {
  AnswerOf,
  ApiPaths,
  ArgsOf,
  CallOptions,
  HttpMethod,
  ItemOf,
  ListPaths,
  OperationOf,
  PathsWith,
  RetryPolicy,
} from './types.js';

/** Settings of a client. */
export interface ClientOptions {
  /** The API's base URL, ending with the version: `https://signups.example.com/api/v1`. */
  baseUrl: string;
  /**
   * The bearer credential: an API key (`sgn_test_…`, `sgn_live_…`) or an OAuth access token, or a
   * function returning one (called before every attempt, so a refreshed token is picked up).
   */
  token?: string | (() => string | Promise<string>);
  /** Headers sent with every call. */
  headers?: Record<string, string>;
  /** The retry policy; `false` never retries. */
  retry?: Partial<RetryPolicy> | false;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Waits between attempts (default: a timer, cut short by the call's signal). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A number in [0, 1) for the backoff's jitter (default Math.random). */
  random?: () => number;
  /** New Idempotency-Keys (default crypto.randomUUID). */
  newIdempotencyKey?: () => string;
}

/** A whole answer: status, headers and the parsed body (undefined for 204 and 304). */
export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  data: T;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 };

const MUTATIONS = new Set<string>(['post', 'patch', 'delete']);

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

function queryString(query: object | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '') throw new TypeError(`Missing path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** Header names in lower case, so a caller's `Idempotency-Key` replaces the client's instead of joining it. */
function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

async function bodyOf(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 304) return undefined;
  const text = await res.text();
  if (!text) return undefined;
  return /[/+]json\b/i.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
}

/**
 * A typed client of the REST API. Paths, parameters, bodies and answers are typed from the
 * OpenAPI document (`Paths`, by default the generated one), so a new route is typed by
 * regenerating. Every call is authenticated, retried when that is safe, and fails with a
 * ProblemError (or UnexpectedResponseError) for a non-2xx answer.
 */
export class SignupClient<Paths = ApiPaths> {
  private readonly baseUrl: string;
  private readonly retryPolicy: RetryPolicy | false;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly random: () => number;
  private readonly newKey: () => string;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retryPolicy = options.retry === false ? false : { ...DEFAULT_RETRY, ...options.retry };
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.newKey = options.newIdempotencyKey ?? (() => crypto.randomUUID());
  }

  get<P extends PathsWith<Paths, 'get'>>(path: P, ...args: ArgsOf<OperationOf<Paths, P, 'get'>>) {
    return this.data('get', path, args[0]) as Promise<AnswerOf<OperationOf<Paths, P, 'get'>>>;
  }

  post<P extends PathsWith<Paths, 'post'>>(path: P, ...args: ArgsOf<OperationOf<Paths, P, 'post'>>) {
    return this.data('post', path, args[0]) as Promise<AnswerOf<OperationOf<Paths, P, 'post'>>>;
  }

  put<P extends PathsWith<Paths, 'put'>>(path: P, ...args: ArgsOf<OperationOf<Paths, P, 'put'>>) {
    return this.data('put', path, args[0]) as Promise<AnswerOf<OperationOf<Paths, P, 'put'>>>;
  }

  patch<P extends PathsWith<Paths, 'patch'>>(path: P, ...args: ArgsOf<OperationOf<Paths, P, 'patch'>>) {
    return this.data('patch', path, args[0]) as Promise<AnswerOf<OperationOf<Paths, P, 'patch'>>>;
  }

  delete<P extends PathsWith<Paths, 'delete'>>(path: P, ...args: ArgsOf<OperationOf<Paths, P, 'delete'>>) {
    return this.data('delete', path, args[0]) as Promise<AnswerOf<OperationOf<Paths, P, 'delete'>>>;
  }

  /**
   * Every page of a list, following `nextCursor` from the `cursor` given (or the first page), with
   * the other query parameters sent again beside it (the API accepts a cursor's own filters, the
   * event log's `after` and `order` included).
   */
  async *pages<P extends ListPaths<Paths>>(
    path: P,
    ...args: ArgsOf<OperationOf<Paths, P, 'get'>>
  ): AsyncGenerator<AnswerOf<OperationOf<Paths, P, 'get'>>, void, undefined> {
    const options = (args[0] ?? {}) as RawOptions;
    let cursor = options.query?.cursor as string | undefined;
    do {
      const query = { ...options.query, ...(cursor !== undefined && { cursor }) };
      const page = (await this.data('get', path, { ...options, query })) as { nextCursor: string | null };
      yield page as AnswerOf<OperationOf<Paths, P, 'get'>>;
      if (page.nextCursor !== null && page.nextCursor === cursor) throw new UnexpectedPageError(path, cursor);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Every element of a list, across its pages: `for await (const signup of client.paginate('/signups'))`. */
  async *paginate<P extends ListPaths<Paths>>(
    path: P,
    ...args: ArgsOf<OperationOf<Paths, P, 'get'>>
  ): AsyncGenerator<ItemOf<OperationOf<Paths, P, 'get'>>, void, undefined> {
    for await (const page of this.pages(path, ...args)) {
      yield* (page as { data: ItemOf<OperationOf<Paths, P, 'get'>>[] }).data;
    }
  }

  /** Any call, answered with status and headers (a 304 to If-None-Match is an answer, not an error). */
  async request<M extends HttpMethod, P extends PathsWith<Paths, M>>(
    method: M,
    path: P,
    ...args: ArgsOf<OperationOf<Paths, P, M>>
  ): Promise<ApiResponse<AnswerOf<OperationOf<Paths, P, M>> | undefined>> {
    return this.send(method, path, args[0] as RawOptions);
  }

  private async data(method: HttpMethod, path: string, options: unknown): Promise<unknown> {
    return (await this.send(method, path, options as RawOptions)).data;
  }

  private async send(method: HttpMethod, path: string, options: RawOptions = {}): Promise<ApiResponse<never>> {
    const url = `${this.baseUrl}${fillPath(path, options.params)}${queryString(options.query)}`;
    const mutation = MUTATIONS.has(method);
    const idempotencyKey = mutation && options.idempotencyKey !== false ? (options.idempotencyKey ?? this.newKey()) : undefined;
    const policy = options.retry === false || this.retryPolicy === false ? false : { ...this.retryPolicy, ...options.retry };
    // Sent again only when that cannot do the work twice: a read, or a mutation with its Idempotency-Key.
    const repeatable = !mutation || idempotencyKey !== undefined;
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      ...lowerCased(this.options.headers),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }),
      ...(options.ifMatch !== undefined && { 'if-match': options.ifMatch }),
      ...(options.ifNoneMatch !== undefined && { 'if-none-match': options.ifNoneMatch }),
      ...lowerCased(options.headers),
    };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    for (let attempt = 0; ; attempt++) {
      const token = typeof this.options.token === 'function' ? await this.options.token() : this.options.token;
      let res: Response;
      try {
        res = await this.fetchImpl(url, {
          method: method.toUpperCase(),
          headers: token ? { ...headers, authorization: `Bearer ${token}` } : headers,
          body,
          signal: options.signal,
          // Never followed: the API does not redirect, and a redirect must not carry the credential elsewhere.
          redirect: 'manual',
        });
      } catch (error) {
        // A network error: the request may or may not have arrived.
        if (options.signal?.aborted || !repeatable || !policy || attempt >= policy.maxRetries) throw error;
        await this.sleep(this.backoff(policy, attempt), options.signal);
        continue;
      }
      if (res.ok || res.status === 304) return { status: res.status, headers: res.headers, data: (await bodyOf(res)) as never };
      const error = await errorOf(res);
      const wait = policy && attempt < policy.maxRetries ? this.retryDelay(policy, attempt, error, repeatable, mutation) : undefined;
      if (wait === undefined) throw error;
      await this.sleep(wait, options.signal);
    }
  }

  /** How long to wait before sending again after this error, or undefined to throw it. */
  private retryDelay(
    policy: RetryPolicy,
    attempt: number,
    error: ProblemError | UnexpectedResponseError,
    repeatable: boolean,
    mutation: boolean,
  ): number | undefined {
    const { status } = error;
    // 429 is answered before any work is done, so even a mutation without a key can be sent again.
    // A 409 with Retry-After is a wait, not a refusal: a request with the same key still running, or
    // an event-log position not settled yet.
    const asksToWait =
      status === 429 ||
      status === 503 ||
      (error instanceof ProblemError && error.code === 'idempotency_in_progress') ||
      (status === 409 && retryAfterSeconds(error.headers) !== undefined);
    if (!repeatable && status !== 429) return undefined;
    if (!asksToWait && status < 500) return undefined;
    // A 500 to a mutation may come after the work committed (a service that answered too late), and
    // 5xx answers are not kept for the key: sending it again could do the work twice.
    if (status === 500 && mutation) return undefined;
    const retryAfter = retryAfterSeconds(error.headers);
    if (asksToWait && retryAfter !== undefined) {
      const ms = retryAfter * 1000;
      return ms <= policy.maxRetryAfterMs ? ms : undefined;
    }
    return this.backoff(policy, attempt);
  }

  /** Exponential backoff with full jitter: random below min(max, base · 2^attempt). */
  private backoff(policy: RetryPolicy, attempt: number): number {
    return Math.floor(this.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt));
  }
}

type RawOptions = CallOptions & {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
};

/** A client of the REST API (see SignupClient). */
export function createClient<Paths = ApiPaths>(options: ClientOptions): SignupClient<Paths> {
  return new SignupClient<Paths>(options);
}
