import type { KoaContext } from 'oidc-provider';
import { OAUTH_ROUTES } from '../oauth-routes.js';

const DISALLOWED_GRANT = 'requested grant type is not allowed for this client';
const DEVICE_GRANT_NOT_ALLOWED = 'urn:ietf:params:oauth:grant-type:device_code is not allowed for this client';

/**
 * Token and device endpoint errors as the contract's table names them, where oidc-provider
 * says otherwise: a grant the client was not registered for is unauthorized_client
 * (oidc-provider: invalid_request), and a code exchange without code_verifier misses a
 * parameter, so invalid_request (oidc-provider: invalid_grant).
 */
export async function contractTokenErrors(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
  if (!body?.error || (ctx.path !== OAUTH_ROUTES.token && ctx.path !== OAUTH_ROUTES.device_authorization)) return;
  const params = ctx.oidc?.params ?? {};
  if (
    body.error === 'invalid_request' &&
    (body.error_description === DISALLOWED_GRANT || body.error_description === DEVICE_GRANT_NOT_ALLOWED)
  ) {
    ctx.body = { ...body, error: 'unauthorized_client' };
  } else if (body.error === 'invalid_grant' && params.grant_type === 'authorization_code' && !params.code_verifier) {
    ctx.body = { error: 'invalid_request', error_description: "missing required parameter 'code_verifier'" };
  }
}
