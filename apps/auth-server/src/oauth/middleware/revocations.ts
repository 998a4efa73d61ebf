import { importJWK, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import type { KoaContext } from 'oidc-provider';
import { ACCESS_TOKEN_CLAIMS, accessTokenJwt } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import type { OAuthGrants } from '../oauth-grants.js';
import { publicJwks } from '../oauth-keys.js';
import { OAUTH_ROUTES } from '../oauth-routes.js';

const RECORD_ATTEMPTS = 3;

/** Records a revoked grant, trying again on a transient failure: the provider has already deleted it, so nothing else would. */
async function recordWithRetries(grants: OAuthGrants, grantId: string, logger: Logger): Promise<boolean> {
  for (let attempt = 1; attempt <= RECORD_ATTEMPTS; attempt++) {
    try {
      await grants.recordRevocation(grantId);
      return true;
    } catch (err) {
      logger.error({ err, grantId, attempt }, 'Recording a revoked OAuth grant failed');
    }
  }
  return false;
}

/**
 * oidc-provider revokes a grant on refresh token reuse and at /oauth/revoke, then emits
 * grant.revoked: record and announce it before the response leaves, so a client that saw the
 * answer finds the grant's tokens refused. If it cannot be recorded the client gets
 * server_error rather than a success the resource servers do not know about.
 */
export function announceRevokedGrants(provider: Provider, grants: OAuthGrants, logger: Logger) {
  const pending = new WeakMap<object, Promise<boolean>[]>();
  provider.on('grant.revoked', (ctx: object, grantId: string) => {
    pending.set(ctx, [...(pending.get(ctx) ?? []), recordWithRetries(grants, grantId, logger)]);
  });
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    try {
      await next();
    } finally {
      const recorded = await Promise.all(pending.get(ctx) ?? []);
      if (recorded.includes(false)) {
        ctx.status = 500;
        ctx.body = { error: 'server_error', error_description: 'The revocation could not be recorded; try again.' };
      }
    }
  };
}

/**
 * Access tokens are JWTs behind `oat_` that the provider neither stores nor finds, so it
 * answers 200 as RFC 7009 prescribes for a token it does not know. One it signed for the
 * authenticated client revokes the token's grant instead (RFC 7009 allows revoking the grant
 * with the token); any other stays a 200 that revokes nothing.
 */
export function revokeJwtAccessTokens(issuer: string, signingKey: Record<string, unknown>, grants: OAuthGrants) {
  const key = importJWK(publicJwks(signingKey).keys[0]!, 'ES256');
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const token = ctx.oidc?.params?.token;
    const clientId = ctx.oidc?.client?.clientId;
    const jwt = typeof token === 'string' ? accessTokenJwt(token) : undefined;
    if (ctx.path !== OAUTH_ROUTES.revocation || ctx.status !== 200 || jwt === undefined || !clientId) return;
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(jwt, await key, { issuer, typ: 'at+jwt', algorithms: ['ES256'] }));
    } catch {
      return;
    }
    const grantId = claims[ACCESS_TOKEN_CLAIMS.grant];
    if (claims.client_id === clientId && typeof grantId === 'string' && typeof claims.sub === 'string')
      await grants.revokeForAccount(claims.sub, grantId);
  };
}
