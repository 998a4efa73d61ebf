import type { KoaContext } from 'oidc-provider';
import { problemPage } from '../../interactions/pages.js';
import { OAUTH_ROUTES } from '../oauth-routes.js';

/** The page that tells the user an application's request failed, and what to do. */
export function invalidRequestPage(error: string, description: string | undefined): string {
  return problemPage(
    `The application's request is not valid (${error}): ${description ?? 'no details given'}. Go back to the application and start again.`,
  );
}

/**
 * An error of the authorization endpoint itself (a bad scope, a missing PKCE challenge) is shown
 * on a page, not sent to the redirect_uri: until the user has approved the client, its
 * redirect_uri is only what an anonymous registration claimed, and a redirect there would make
 * this server an open redirector. Errors after sign-in and consent (access_denied) redirect.
 */
export async function untrustedErrorsOnAPage(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  const mode = ctx.path === OAUTH_ROUTES.authorization ? ctx.query.response_mode : undefined;
  if (mode !== undefined && mode !== 'query') {
    // A fragment or form_post answer would carry an error to the redirect_uri where the check below cannot see it.
    ctx.status = 400;
    ctx.state.ourPage = true;
    ctx.body = invalidRequestPage('invalid_request', 'response_mode must be query');
    return;
  }
  await next();
  if (ctx.oidc?.route !== 'authorization' || ctx.status < 300 || ctx.status >= 400) return;
  const location = new URL(ctx.response.get('location') || '/', 'http://unused');
  const error = location.searchParams.get('error');
  if (!error) return;
  ctx.response.remove('location');
  ctx.status = 400;
  ctx.state.ourPage = true;
  ctx.body = invalidRequestPage(error, location.searchParams.get('error_description') ?? undefined);
}
