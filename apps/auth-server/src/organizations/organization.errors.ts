import { ProblemError } from '#libs/problem';

export function organizationNotFound(id: string): ProblemError {
  return new ProblemError('not_found', `No organization with id "${id}".`);
}

/** Every slug tried for a new organization was taken: not the caller's fault, so an internal error. */
export function noFreeSlug(name: string, attempts: number): Error {
  return new Error(`No free slug for organization "${name}" after ${attempts} attempts.`);
}
