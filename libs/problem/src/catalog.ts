/**
 * The single catalog of problem codes of the contract's Errors table: status and title.
 * Clients switch on `code`; `type` is derived from it (see problemType).
 */
export const PROBLEM_CATALOG = {
  missing_credentials: {
    status: 401,
    title: 'Missing credentials',
    description: 'The request carried no Authorization header. Send `Authorization: Bearer <API key or access token>`.',
  },
  malformed_credentials: {
    status: 401,
    title: 'Malformed credentials',
    description:
      'The Authorization header is present but cannot be parsed: use the Bearer scheme followed by one space and the credential.',
  },
  invalid_credentials: {
    status: 401,
    title: 'Invalid credentials',
    description: 'The bearer credential is not recognized or has expired.',
  },
  revoked_credentials: {
    status: 401,
    title: 'Revoked credentials',
    description: 'The bearer credential was explicitly revoked. Create or obtain a new one.',
  },
  scope_required: {
    status: 403,
    title: 'Scope required',
    description: 'The credential is valid but lacks the scope this operation needs; the detail names the scope.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    description:
      "The credential and its scopes are valid, but this operation is not allowed for the caller, for example changing another organization's signup.",
  },
  upgrade_required: {
    status: 402,
    title: 'Upgrade required',
    description: 'The feature, count or quota is gated to a higher tier. The cause member says which and by how much.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    description: 'The resource does not exist or is not visible to the caller; the two are not distinguished.',
  },
  conflict: {
    status: 409,
    title: 'Conflict',
    description: 'The operation is an invalid state transition for the resource, for example publishing a closed signup.',
  },
  idempotency_in_progress: {
    status: 409,
    title: 'Idempotent request in progress',
    description: 'A request with the same Idempotency-Key is still being processed. Retry shortly.',
  },
  cursor_expired: {
    status: 410,
    title: 'Cursor expired',
    description:
      'The cursor points into events older than the event log keeps (30 days by default). List the resources again, then read the log from its newest event.',
  },
  bad_request: {
    status: 400,
    title: 'Bad request',
    description:
      'The request is well formed but cannot complete in the current state, for example registering on a signup that accepts no more registrations.',
  },
  validation_failed: {
    status: 422,
    title: 'Validation failed',
    description: 'The body, query or path failed validation. Each failure is itemized in errors[] with a dot-delimited path.',
  },
  precondition_failed: {
    status: 412,
    title: 'Precondition failed',
    description:
      'The If-Match header names no current ETag of the resource: it changed since the tag was issued. Read it again (GET answers the new ETag) and reapply the change.',
  },
  idempotency_key_reuse: {
    status: 422,
    title: 'Idempotency key reused',
    description: 'The same Idempotency-Key was used with a different request within 24 hours.',
  },
  rate_limited: {
    status: 429,
    title: 'Rate limited',
    description: 'The per-credential per-minute budget is exhausted. Wait for the number of seconds in Retry-After.',
  },
  daily_ceiling_exceeded: {
    status: 429,
    title: 'Daily ceiling exceeded',
    description: 'A per-organization daily cap is reached. Retry the next UTC day.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    description: 'An unexpected failure. It is safe to retry with the same Idempotency-Key.',
  },
  upstream_unavailable: {
    status: 502,
    title: 'Upstream unavailable',
    description: 'A third-party dependency (AI provider, SMS gateway) failed (502) or timed out (504). Retry with backoff.',
  },
} as const satisfies Record<string, { status: number; title: string; description: string }>;

export type ProblemCode = keyof typeof PROBLEM_CATALOG;

export const PROBLEM_CODES = Object.keys(PROBLEM_CATALOG) as ProblemCode[];

export function isProblemCode(value: unknown): value is ProblemCode {
  return typeof value === 'string' && Object.hasOwn(PROBLEM_CATALOG, value);
}

/** `not_found` → `not-found`, the last segment of the type URI. */
export function problemSlug(code: ProblemCode): string {
  return code.replaceAll('_', '-');
}

export function codeFromSlug(slug: string): ProblemCode | undefined {
  if (slug.includes('_')) return undefined;
  const code = slug.replaceAll('-', '_');
  return isProblemCode(code) ? code : undefined;
}

export function problemType(problemBase: string, code: ProblemCode): string {
  return `${problemBase.replace(/\/+$/, '')}/${problemSlug(code)}`;
}
