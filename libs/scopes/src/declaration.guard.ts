import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ProblemError } from '#libs/problem';
import { authRequirementOf } from './auth.decorator.js';

/** Global in every app: a route that declares no access requirement is refused, never let through. */
@Injectable()
export class DeclarationGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!authRequirementOf(context.getHandler(), context.getClass())) {
      throw new ProblemError('internal_error', 'This route declares no access requirement.');
    }
    return true;
  }
}
