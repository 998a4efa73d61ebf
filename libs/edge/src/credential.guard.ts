import { type CanActivate, type ExecutionContext, Injectable, Optional } from '@nestjs/common';
import type { Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { authRequirementOf } from '#libs/scopes';
import { CredentialVerifier } from './credential-verifier.js';
import { missingCredentials, parseAuthorization } from './credentials.js';
import { EdgeRateLimiter } from './limits/edge-rate-limiter.js';
import { countCall } from './limits/rate-limit.guard.js';

export interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
}

/**
 * The global guard of an edge: authenticates per the route's declared requirement and leaves
 * the Principal on the request for ScopeGuard and handlers. A route that declares nothing is
 * refused, never let through. With a rate limiter, a refused credential counts against the
 * client address's anonymous budget: guessing keys is limited like any anonymous call, and its
 * 401 carries the rate limit fields.
 */
@Injectable()
export class CredentialGuard implements CanActivate {
  constructor(
    private readonly verifier: CredentialVerifier,
    @Optional() private readonly limiter?: EdgeRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    try {
      return await this.authenticate(context);
    } catch (err) {
      if (this.limiter && err instanceof ProblemError && err.status === 401) await countCall(this.limiter, context);
      throw err;
    }
  }

  private async authenticate(context: ExecutionContext): Promise<boolean> {
    const requirement = authRequirementOf(context.getHandler(), context.getClass());
    if (!requirement) throw new ProblemError('internal_error', 'This route declares no access requirement.');
    if (requirement.access === 'public' || requirement.access === 'admin') return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const credential = parseAuthorization(request.headers.authorization);
    if (credential.kind === 'none') {
      if (requirement.access === 'optional') return true;
      throw missingCredentials();
    }
    request.principal = await this.verifier.verify(credential);
    return true;
  }
}
