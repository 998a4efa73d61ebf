import type { IncomingMessage } from 'node:http';
import type { KoaContext } from 'oidc-provider';

/** The consent form posts (Approve and Deny) that resume the authorization on their own request. */
export const consentDecisions = new WeakSet<IncomingMessage>();

/**
 * Approve and Deny answer the redirect to the client (code and state, or error=access_denied)
 * as a 302, as the contract's steps say; oidc-provider answers 303. A sign-in keeps the 303
 * RFC 9700 asks for after a post that carried a password.
 */
export async function foundRedirects(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.oidc?.route === 'resume' && ctx.status === 303 && consentDecisions.has(ctx.req)) ctx.status = 302;
}
