import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Principal } from '#libs/contracts';
import { isUnmetered } from '#libs/scopes';
import { EdgeRateLimiter } from './edge-rate-limiter.js';

interface LimitedRequest {
  method: string;
  ip: string;
  principal?: Principal;
}

interface HeaderReply {
  headers(values: Record<string, string>): unknown;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Runs after the credential guard: counts the call against its budgets, puts the rate limit
 * fields on the response (they stay on whatever answer follows, problems included) and refuses
 * an exhausted caller with 429 rate_limited and Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: EdgeRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (isUnmetered(context.getHandler(), context.getClass())) return true;
    const http = context.switchToHttp();
    const request = http.getRequest<LimitedRequest>();
    const verdict = await this.limiter.check({ principal: request.principal, ip: request.ip, write: !READS.has(request.method) });
    http.getResponse<HeaderReply>().headers(verdict.headers);
    if (verdict.refusal) throw verdict.refusal;
    return true;
  }
}
