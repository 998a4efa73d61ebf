import { ProblemError } from '#libs/problem';

export function organizationNotFound(id: string): ProblemError {
  return new ProblemError('not_found', `No organization with id "${id}".`);
}
