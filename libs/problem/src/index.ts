export { PROBLEM_CATALOG, PROBLEM_CODES, codeFromSlug, isProblemCode, problemSlug, problemType, type ProblemCode } from './catalog.js';
export {
  ProblemError,
  asProblem,
  isProblemError,
  type FieldError,
  type ProblemExtras,
  type UpgradeCause,
  type WireProblem,
} from './problem-error.js';
export { PROBLEM_CONTENT_TYPE, toProblemBody, type ProblemBody } from './problem-body.js';
export { ProblemSchema } from './problem-schema.js';
export { ProblemFilter, sendProblem, toProblem, type ProblemLogger } from './problem.filter.js';
export { renderProblemPage } from './problem-page.js';
export { upgradeRequired, type UpgradeRequest } from './upgrade-required.js';
