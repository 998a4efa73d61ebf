import type { IncomingMessage } from 'node:http';
import type { KoaContext } from 'oidc-provider';

/** Requests that came over https as Fastify judges it: its own TLS, or X-Forwarded-Proto from a proxy TRUST_PROXY trusts. */
export const httpsRequests = new WeakSet<IncomingMessage>();

/**
 * The provider's cookies are Secure on a request that came over https (TRUST_PROXY honoured as
 * everywhere else), and on every request when the public URL is https, even where TLS ends at
 * an ingress that does not say so: the request then counts as secure, which is what
 * oidc-provider and Koa's cookies decide Secure by.
 */
export function secureCookies(httpsIssuer: boolean) {
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    if (httpsIssuer || httpsRequests.has(ctx.req)) Object.defineProperty(ctx.request, 'secure', { value: true });
    await next();
  };
}
