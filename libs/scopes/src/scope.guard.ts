import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { ProblemError } from '#libs/problem';
import { type AuthRequirement, authRequirementOf } from './auth.decorator.js';
import type { Scope } from './catalog.js';

/** What the credential guard leaves on the request for this guard to read. */
export interface ScopedCaller {
  kind: 'api_key' | 'oauth';
  scopes: readonly Scope[];
  /** The OAuth client of a token. */
  clientId?: string;
}

function missingScope(scope: Scope): ProblemError {
  return new ProblemError('scope_required', `This operation requires the scope "${scope}".`, {
    headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
  });
}

/** Checks a requirement's credential, credential kind and scope against the caller: at the edges and again in the services. */
export function assertAllowed(requirement: AuthRequirement, caller: ScopedCaller | undefined): void {
  if (requirement.access === 'public' || requirement.access === 'optional' || requirement.access === 'admin') return;
  if (!caller)
    throw new ProblemError('missing_credentials', 'This operation needs a credential: send Authorization: Bearer <key or token>.');
  if (requirement.apiKeyOnly && caller.kind !== 'api_key') {
    const { firstParty } = requirement;
    if (!firstParty || caller.clientId !== firstParty.clientId) {
      throw new ProblemError('forbidden', 'This operation takes an organization API key, not an OAuth access token.');
    }
    if (!caller.scopes.includes(firstParty.scope)) throw missingScope(firstParty.scope);
  }
  if (requirement.access === 'scope' && !caller.scopes.includes(requirement.scope)) throw missingScope(requirement.scope);
}

/** Checks the declared scope, and API-key-only routes, against the authenticated caller. */
@Injectable()
export class ScopeGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const requirement = authRequirementOf(context.getHandler(), context.getClass());
    if (!requirement) throw new ProblemError('internal_error', 'This route declares no access requirement.');
    assertAllowed(requirement, context.switchToHttp().getRequest<{ principal?: ScopedCaller }>().principal);
    return true;
  }
}
