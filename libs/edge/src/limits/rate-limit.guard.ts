import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '#libs/contracts';
import { isUnmetered } from '#libs/scopes';
import { EdgeRateLimiter } from './edge-rate-limiter.js';

interface LimitedRequest {
  method: string;
  ip: string;
  principal?: Principal;
  /** Set once the edge's guards have metered the call, or found its route unmetered. */
  [METERED]?: true;
}

interface HeaderReply {
  headers(values: Record<string, string>): unknown;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const METERED = Symbol('metered');

/**
 * Counts the call of `context` against the budgets of its caller (the principal, or else the
 * client address), puts the rate limit fields on the response (they stay on whatever answer
 * follows, problems included) and throws 429 rate_limited when a budget is exhausted.
 */
export async function countCall(limiter: EdgeRateLimiter, context: ExecutionContext): Promise<void> {
  const http = context.switchToHttp();
  const request = http.getRequest<LimitedRequest>();
  request[METERED] = true;
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
    if (isUnmetered(context.getHandler(), context.getClass())) context.switchToHttp().getRequest<LimitedRequest>()[METERED] = true;
    else await countCall(this.limiter, context);
    return true;
  }
}

/**
 * Meters the refusals no guard saw: Fastify's own before routing (malformed JSON, a content type
 * or body size the route does not take), an unknown route, a hook's refusal (an MCP origin not
 * allowed), or a 4xx of the credential check other than 401. Each counts against the client
 * address's anonymous budget, as an unknown credential does, and carries the rate limit fields
 * (and Retry-After once that budget is spent); the refusal itself is answered as it was. A
 * successful answer no guard saw is the OpenAPI document or its docs page, never metered; a 5xx
 * (the auth-server unreachable, say) is our failure, not the caller's, and is not counted either.
 */
export function meterUnguardedRefusals(fastify: FastifyInstance, limiter: EdgeRateLimiter): void {
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const limited = request as unknown as LimitedRequest;
    if (reply.statusCode < 400 || reply.statusCode >= 500 || limited[METERED]) return payload;
    const verdict = await limiter.check({ ip: request.ip, write: !READS.has(request.method) });
    reply.headers({ ...verdict.headers, ...verdict.refusal?.headers });
    return payload;
  });
}
