import { isProblemCode, PROBLEM_CATALOG, type ProblemCode } from './catalog.js';

export interface FieldError {
  path: string;
  message: string;
}

export interface UpgradeCause {
  kind: 'feature' | 'limit' | 'quota';
  featureLabel: string;
  currentTier: string;
  requiredTier: string | null;
  limit?: number;
  used?: number;
}

export interface ProblemExtras {
  errors?: FieldError[];
  cause?: UpgradeCause;
  /** Overrides the catalog status (only upstream_unavailable varies: 502 or 504). */
  status?: number;
  /** Response headers that belong to the problem (Retry-After, WWW-Authenticate). */
  headers?: Record<string, string>;
}

/** The form a problem takes on the bus and in stored records: plain JSON, no stack. */
export interface WireProblem {
  code: ProblemCode;
  detail?: string;
  status?: number;
  errors?: FieldError[];
  cause?: UpgradeCause;
  headers?: Record<string, string>;
}

/** A failure that maps to a contract problem. Anything thrown that is not one becomes internal_error. */
export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly detail?: string;
  readonly errors?: FieldError[];
  readonly problemCause?: UpgradeCause;
  readonly headers: Record<string, string>;

  constructor(code: ProblemCode, detail?: string, extras: ProblemExtras = {}) {
    super(detail ?? PROBLEM_CATALOG[code].title);
    this.name = 'ProblemError';
    this.code = code;
    this.status = extras.status ?? PROBLEM_CATALOG[code].status;
    this.detail = detail;
    this.errors = extras.errors;
    this.problemCause = extras.cause;
    this.headers = extras.headers ?? {};
  }

  static validation(errors: FieldError[], detail = 'The request failed validation.'): ProblemError {
    return new ProblemError('validation_failed', detail, { errors });
  }

  toWire(): WireProblem {
    return {
      code: this.code,
      ...(this.detail !== undefined && { detail: this.detail }),
      ...(this.status !== PROBLEM_CATALOG[this.code].status && { status: this.status }),
      ...(this.errors && { errors: this.errors }),
      ...(this.problemCause && { cause: this.problemCause }),
      ...(Object.keys(this.headers).length > 0 && { headers: this.headers }),
    };
  }

  static fromWire(wire: WireProblem): ProblemError {
    if (!isProblemCode(wire.code)) return new ProblemError('internal_error');
    return new ProblemError(wire.code, wire.detail, {
      status: wire.status,
      errors: wire.errors,
      cause: wire.cause,
      headers: wire.headers,
    });
  }
}

export function isProblemError(err: unknown): err is ProblemError {
  return err instanceof ProblemError;
}

/** Any thrown value as a ProblemError; unknown failures become internal_error without their text. */
export function asProblem(err: unknown): ProblemError {
  return isProblemError(err) ? err : new ProblemError('internal_error', 'An unexpected error occurred.');
}
