import type { components, paths } from './generated/openapi.js';

/** The HTTP methods of the REST API. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths of `Paths` that answer `M` (`'/signups/{id}'` for `'get'`). */
export type PathsWith<Paths, M extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: object } ? P : never;
}[keyof Paths] &
  string;

/** The operation of one method on one path. */
export type OperationOf<Paths, P extends keyof Paths, M extends HttpMethod> = Paths[P] extends { [K in M]: infer O } ? O : never;

type Present<T> = [Exclude<T, undefined>] extends [never] ? never : Exclude<T, undefined>;

type ParametersIn<O, Where extends 'path' | 'query'> = O extends { parameters: { [K in Where]?: infer X } } ? Present<X> : never;

type RequestBodyOf<O> = O extends { requestBody?: infer R } ? Present<R> : never;

/** The JSON body an operation takes. */
export type BodyOf<O> = [RequestBodyOf<O>] extends [never]
  ? never
  : RequestBodyOf<O> extends { content: { 'application/json': infer B } }
    ? B
    : never;

type ContentOf<R> = R extends { content: infer C } ? C[keyof C] : undefined;

/** What an operation answers on success (2xx), by its media type: JSON parsed, text as a string. */
export type AnswerOf<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 | 204 ? ContentOf<R[S]> : never }[keyof R]
  : never;

/** Options of any call. */
export interface CallOptions {
  /** Extra headers, e.g. `{ 'if-match': etag }` for a conditional update. */
  headers?: Record<string, string>;
  /** Sent as If-Match (PATCH, DELETE: 412 precondition_failed when the resource changed). */
  ifMatch?: string;
  /** Sent as If-None-Match (GET: 304 with no body when unchanged; use `client.request` to see it). */
  ifNoneMatch?: string;
  /**
   * POST, PATCH and DELETE: the Idempotency-Key of this logical operation, sent on every attempt.
   * Generated (a UUID) when omitted; pass your own to retry across restarts, or `false` to send
   * none (the call is then never sent twice).
   */
  idempotencyKey?: string | false;
  /** Overrides the client's retry policy for this call; `false` sends once. */
  retry?: Partial<RetryPolicy> | false;
  signal?: AbortSignal;
}

type PathPart<O> = [ParametersIn<O, 'path'>] extends [never] ? { params?: undefined } : { params: ParametersIn<O, 'path'> };
type QueryPart<O> = [ParametersIn<O, 'query'>] extends [never] ? { query?: undefined } : { query?: ParametersIn<O, 'query'> };
type BodyPart<O> = [BodyOf<O>] extends [never]
  ? { body?: undefined }
  : O extends { requestBody: object }
    ? { body: BodyOf<O> }
    : { body?: BodyOf<O> };

/** The options of one operation: its path parameters, query and body, typed. */
export type OptionsOf<O> = CallOptions & PathPart<O> & QueryPart<O> & BodyPart<O>;

/** The options as arguments: optional when nothing in them is required. */
export type ArgsOf<O> = object extends OptionsOf<O> ? [options?: OptionsOf<O>] : [options: OptionsOf<O>];

/** The GET paths that answer a page (`data` and `nextCursor`), and take a `cursor`. */
export type ListPaths<Paths> = {
  [P in keyof Paths]: Paths[P] extends { get: infer O }
    ? AnswerOf<O> extends { data: unknown[]; nextCursor: string | null }
      ? P
      : never
    : never;
}[keyof Paths] &
  string;

/** One element of a list's pages. */
export type ItemOf<O> = AnswerOf<O> extends { data: (infer T)[] } ? T : never;

/** How calls are retried. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** The backoff's first ceiling in ms, doubled at every retry (default 500): the wait is random below it (full jitter). */
  baseDelayMs: number;
  /** The backoff's highest ceiling in ms (default 20 000). */
  maxDelayMs: number;
  /** A Retry-After longer than this (ms, default 60 000) is not waited for: the error is thrown. */
  maxRetryAfterMs: number;
}

/** The problem codes of the API's catalog (the `code` of every problem+json answer). */
export type ProblemCode = components['schemas']['ProblemSchema']['code'];

/** One field's error of a validation_failed problem. */
export type FieldError = components['schemas']['FieldErrorSchema'];

/** The generated paths of the REST API (relative to the base URL, which ends with `/api/v1`). */
export type ApiPaths = paths;
