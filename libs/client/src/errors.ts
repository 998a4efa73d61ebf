import type { components } from './generated/openapi.js';
import type { FieldError, ProblemCode } from './types.js';

/** An RFC 9457 problem as the API answers it (application/problem+json). */
export type ProblemBody = components['schemas']['ProblemSchema'];

/** Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function requestIdOf(headers: Headers, instance: string | undefined): string | undefined {
  return headers.get('x-request-id') ?? instance?.replace(/^urn:request:/, '');
}

/**
 * A problem+json answer, discriminated by `code` (`switch (error.code)` narrows it); every code
 * of the catalog is in ProblemCode. A code this client does not know yet keeps its string.
 */
export class ProblemError<C extends ProblemCode = ProblemCode> extends Error {
  override readonly name = 'ProblemError';
  readonly status: number;
  readonly code: C;
  readonly title: string;
  readonly type: string;
  readonly detail: string | undefined;
  /** The fields in error of a validation_failed problem (empty otherwise). */
  readonly errors: FieldError[];
  /** The request id, to quote to support (the X-Request-Id header, or the problem's instance). */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (Retry-After), on 429, 503 and idempotency_in_progress. */
  readonly retryAfter: number | undefined;

  constructor(
    readonly problem: ProblemBody,
    readonly headers: Headers,
  ) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.status = problem.status;
    this.code = problem.code as C;
    this.title = problem.title;
    this.type = problem.type;
    this.detail = problem.detail;
    this.errors = problem.errors ?? [];
    this.requestId = requestIdOf(headers, problem.instance);
    this.retryAfter = retryAfterSeconds(headers);
  }

  /** Whether this is the problem of `code` (narrows it). */
  is<K extends ProblemCode>(code: K): this is ProblemError<K> {
    return (this.code as ProblemCode) === code;
  }
}

/** Every problem, as a union discriminated by `code`. */
export type AnyProblemError = { [C in ProblemCode]: ProblemError<C> }[ProblemCode];

/** Whether `error` is a problem answer, of one of `codes` when given. */
export function isProblem<K extends ProblemCode = ProblemCode>(error: unknown, ...codes: K[]): error is ProblemError<K> {
  return error instanceof ProblemError && (codes.length === 0 || codes.includes(error.code as K));
}

/** An error answer that is not problem+json (a proxy's HTML page, for one). */
export class UnexpectedResponseError extends Error {
  override readonly name = 'UnexpectedResponseError';
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;

  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly body: string,
  ) {
    super(`Unexpected answer ${status}${body ? `: ${body.slice(0, 200)}` : ''}`);
    this.requestId = requestIdOf(headers, undefined);
    this.retryAfter = retryAfterSeconds(headers);
  }
}

/** A list that answered, as its next cursor, the cursor it was given: paging stops instead of looping. */
export class UnexpectedPageError extends Error {
  override readonly name = 'UnexpectedPageError';

  constructor(
    readonly path: string,
    readonly cursor: string | undefined,
  ) {
    super(`${path} answered the cursor it was given as its next one`);
  }
}

/** The error of an answer: a ProblemError for problem+json, else an UnexpectedResponseError. */
export async function errorOf(res: Response): Promise<ProblemError | UnexpectedResponseError> {
  const text = await res.text();
  if (/^application\/problem\+json\b/i.test(res.headers.get('content-type') ?? '')) {
    try {
      const body = JSON.parse(text) as ProblemBody;
      if (typeof body.code === 'string' && typeof body.status === 'number') return new ProblemError(body, res.headers);
    } catch {
      // Not JSON after all: reported as it came.
    }
  }
  return new UnexpectedResponseError(res.status, res.headers, text);
}
