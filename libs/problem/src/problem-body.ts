import { PROBLEM_CATALOG, problemType } from './catalog.js';
import type { FieldError, ProblemError, UpgradeCause } from './problem-error.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** RFC 9457 problem details with the contract's code, errors and cause members. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  instance?: string;
  errors?: FieldError[];
  cause?: UpgradeCause;
}

export function toProblemBody(problem: ProblemError, problemBase: string, requestId?: string): ProblemBody {
  return {
    type: problemType(problemBase, problem.code),
    title: PROBLEM_CATALOG[problem.code].title,
    status: problem.status,
    code: problem.code,
    ...(problem.detail !== undefined && { detail: problem.detail }),
    ...(requestId !== undefined && { instance: `urn:request:${requestId}` }),
    ...(problem.errors && { errors: problem.errors }),
    ...(problem.problemCause && { cause: problem.problemCause }),
  };
}
