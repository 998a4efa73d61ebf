import type { IncomingMessage } from 'node:http';
import type { KoaContext } from 'oidc-provider';
import { type LoginLimiter, tooManyAttemptsMessage } from '../../account/login-limiter.js';
import { OAUTH_ROUTES } from '../oauth-routes.js';

/** The client address of each request as Fastify judges it (TRUST_PROXY honoured), for the provider's limits. */
export const clientAddresses = new WeakMap<IncomingMessage, string>();

/** Anonymous client registration (RFC 7591) is limited per client IP: 429 with Retry-After past the limit. */
export function limitRegistrations(limiter: LoginLimiter) {
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    if (ctx.path !== OAUTH_ROUTES.registration || ctx.method !== 'POST') return next();
    const allowance = await limiter.registration(clientAddresses.get(ctx.req) ?? 'unknown');
    if (allowance.allowed) return next();
    ctx.status = 429;
    ctx.set({ 'retry-after': String(allowance.retryAfterSeconds), 'cache-control': 'no-store' });
    ctx.body = {
      error: 'temporarily_unavailable',
      error_description: tooManyAttemptsMessage(allowance.retryAfterSeconds, 'client registrations from this address'),
    };
  };
}
