import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { AuthenticatedRequest } from './credential.guard.js';

/** The authenticated caller of a route that requires a credential. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new ProblemError('internal_error', 'No principal on an authenticated route.');
  return principal;
});
