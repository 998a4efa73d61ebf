import type Provider from 'oidc-provider';
import type { KoaContext } from 'oidc-provider';
import { constantTimeEqual, OAUTH_ARTIFACT_PREFIXES, randomBase62, sha256Hex } from '#libs/contracts';
import { byValueOnly } from './oauth-store.adapter.js';

/** 256 random bits behind each prefix, as many as oidc-provider's own opaque values carry. */
const RANDOM_CHARACTERS = 43;

/** The stored artifacts the provider hands out, each with its prefix (the access token is a JWT, prefixed on the way out). */
const PREFIXED_MODELS = {
  AuthorizationCode: OAUTH_ARTIFACT_PREFIXES.authorizationCode,
  RefreshToken: OAUTH_ARTIFACT_PREFIXES.refreshToken,
  DeviceCode: OAUTH_ARTIFACT_PREFIXES.deviceCode,
} as const;

/**
 * Codes, refresh tokens and device codes are made with their prefix: the value is the model's
 * id (jti), so the store is keyed by the prefixed value and no value without it is ever found
 * (the token endpoint answers it invalid_grant).
 */
export function prefixStoredArtifacts(provider: Provider): void {
  for (const [model, prefix] of Object.entries(PREFIXED_MODELS)) {
    provider[model as keyof typeof PREFIXED_MODELS].prototype.generateTokenId = () => `${prefix}${randomBase62(RANDOM_CHARACTERS)}`;
  }
}

/**
 * A confidential client's secret is stored as its SHA-256 (the store hashes it when the client
 * is registered), so the secret a client presents is hashed before the constant-time
 * comparison. No symmetric algorithm is enabled, so nothing else reads the secret.
 */
export function hashClientSecrets(provider: Provider): void {
  provider.Client.prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string): boolean {
    return typeof this.clientSecret === 'string' && constantTimeEqual(sha256Hex(actual), this.clientSecret);
  };
}

/** The token endpoint's access token leaves as `oat_` and the JWT; resource servers strip the prefix before verifying. */
export function prefixAccessTokens(tokenPath: string) {
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const body = ctx.body as { access_token?: unknown } | undefined;
    if (ctx.path === tokenPath && typeof body?.access_token === 'string') {
      ctx.body = { ...body, access_token: `${OAUTH_ARTIFACT_PREFIXES.accessToken}${body.access_token}` };
    }
  };
}

/** At these paths (the token and revocation endpoints), the store finds artifacts by their value only. */
export function storeByValueAt(paths: string[]) {
  return (ctx: KoaContext, next: () => Promise<void>): Promise<void> => (paths.includes(ctx.path) ? byValueOnly(next) : next());
}
