import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEM_CATALOG, type ProblemCode, ProblemSchema } from '#libs/problem';

/** What a route does with a credential: `required` refuses a request without one, `optional` refuses only a bad one, `none` never reads one. */
export type CredentialUse = 'required' | 'optional' | 'none';

/** The 401 problems each use of a credential can answer: a bad credential is refused even where none is needed. */
const CREDENTIAL_PROBLEMS: Record<CredentialUse, ProblemCode[]> = {
  required: ['missing_credentials', 'malformed_credentials', 'invalid_credentials', 'revoked_credentials'],
  optional: ['malformed_credentials', 'invalid_credentials', 'revoked_credentials'],
  none: [],
};

/**
 * Documents the problem responses of an operation, grouped by status: credential problems per
 * `options.credential` (default required), and rate_limited, which every API route can answer.
 * `options.retryAfter` names the statuses other than 429 and 503 that this operation answers with
 * Retry-After (those two always carry it).
 */
export function ApiProblems(codes: ProblemCode[], options: { credential?: CredentialUse; retryAfter?: number[] } = {}): MethodDecorator {
  const all = [...CREDENTIAL_PROBLEMS[options.credential ?? 'required'], ...codes, 'rate_limited' as const, 'internal_error' as const];
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set(all)) {
    const status = PROBLEM_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return applyDecorators(
    ApiExtraModels(ProblemSchema),
    ...[...byStatus].map(([status, group]) =>
      ApiResponse({
        status,
        description: `Problem: ${group.join(', ')}`,
        ...(options.retryAfter?.includes(status) && {
          headers: { 'Retry-After': { description: 'Seconds to wait before calling again.', schema: { type: 'integer' } } },
        }),
        content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemSchema) } } },
      }),
    ),
  );
}
