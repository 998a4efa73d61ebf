import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
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
 * Counts the call of `context` against the budgets of its caller (the principal, or else the
 * client address), puts the rate limit fields on the response (they stay on whatever answer
 * follows, problems included) and throws 429 rate_limited when a budget is exhausted.
 */
export async function countCall(limiter: EdgeRateLimiter, context: ExecutionContext): Promise<void> {
  const http = context.switchToHttp();
  const request = http.getRequest<LimitedRequest>();
  const verdict = await limiter.check({ principal: request.principal, ip: request.ip, write: !READS.has(request.method) });
  http.getResponse<HeaderReply>().headers(verdict.headers);
  if (verdict.refusal) throw verdict.refusal;
}

/**
 * Runs after the credential guard: counts every call of a limited route (see countCall).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limiter: EdgeRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!isUnmetered(context.getHandler(), context.getClass())) await countCall(this.limiter, context);
    return true;
  }
}
