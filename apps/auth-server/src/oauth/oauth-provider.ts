import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JWK } from 'jose';
import Provider from 'oidc-provider';
import type { DataSource } from 'typeorm';
import type { PublicUrls } from '#libs/config';
import { oauthIssuer, protectedResourceMetadata } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import type { LoginLimiter } from '../account/login-limiter.js';
import { InteractionCsrf } from './interaction-csrf.js';
import { DEVICE_POLL_INTERVAL_SECONDS } from './lifetimes.js';
import { untrustedErrorsOnAPage } from './middleware/authorization-errors.js';
import { touchClients } from './middleware/client-use.js';
import { slowDownFastPolling } from './middleware/device-polling.js';
import { foundRedirects } from './middleware/found-redirects.js';
import { pageHeaders } from './middleware/page-headers.js';
import { limitRegistrations } from './middleware/registration-limit.js';
import { announceRevokedGrants, revokeJwtAccessTokens } from './middleware/revocations.js';
import { secureCookies } from './middleware/secure-cookies.js';
import { contractTokenErrors } from './middleware/token-errors.js';
import { hashClientSecrets, prefixAccessTokens, prefixStoredArtifacts, storeByValueAt } from './oauth-artifacts.js';
import type { OAuthGrants } from './oauth-grants.js';
import { loadOrCreateOAuthKeys, publicJwks } from './oauth-keys.js';
import { authorizationServerMetadata } from './oauth-metadata.js';
import { OAUTH_ROUTES } from './oauth-routes.js';
import { providerConfiguration } from './provider-configuration.js';

/** oidc-provider, set up for pure OAuth 2.1 on the auth schema, with our middleware around it. */
export class OAuthProvider {
  private constructor(
    readonly issuer: string,
    readonly metadata: Record<string, unknown>,
    private readonly handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
    /** The provider itself, for the interaction pages. */
    readonly provider: Provider,
    /** The anti-CSRF tokens of the interaction pages. */
    readonly csrf: InteractionCsrf,
    /** The public keys that verify access tokens. */
    readonly jwks: { keys: JWK[] },
    /** RFC 9728 metadata for the REST API (PUBLIC_BASE_URL) and the MCP surface (MCP_URL). */
    readonly protectedResources: { rest: Record<string, unknown>; mcp: Record<string, unknown> },
  ) {}

  static async create(
    urls: PublicUrls,
    dataSource: DataSource,
    grants: OAuthGrants,
    limiter: LoginLimiter,
    logger: Logger,
    organizationsOf: (userId: string) => Promise<string[]>,
  ): Promise<OAuthProvider> {
    const { authUrl, publicBaseUrl, mcpUrl } = urls;
    const issuer = oauthIssuer(authUrl);
    const keys = await loadOrCreateOAuthKeys(dataSource);
    const csrfKey = keys.cookieKeys[0];
    if (!csrfKey) throw new Error('The OAuth cookie keys are missing.');

    const provider = new Provider(issuer, providerConfiguration({ dataSource, keys, grants, publicBaseUrl, mcpUrl, organizationsOf }));
    provider.on('device_authorization.success', (_ctx: never, body: never) => {
      (body as Record<string, unknown>).interval = DEVICE_POLL_INTERVAL_SECONDS;
    });
    provider.use(secureCookies(new URL(issuer).protocol === 'https:'));
    prefixStoredArtifacts(provider);
    hashClientSecrets(provider);
    provider.use(storeByValueAt([OAUTH_ROUTES.token, OAUTH_ROUTES.revocation]));
    provider.use(prefixAccessTokens(OAUTH_ROUTES.token));
    provider.use(contractTokenErrors);
    provider.use(foundRedirects);
    provider.use(pageHeaders);
    provider.use(limitRegistrations(limiter));
    provider.use(untrustedErrorsOnAPage);
    provider.use(touchClients(dataSource));
    provider.use(slowDownFastPolling(dataSource));
    provider.use(announceRevokedGrants(provider, grants, logger));
    provider.use(revokeJwtAccessTokens(issuer, keys.signingKey, grants));
    provider.on('server_error', (_ctx: never, err: never) => {
      logger.error({ err }, 'OAuth provider error');
    });
    return new OAuthProvider(
      issuer,
      authorizationServerMetadata(issuer),
      provider.callback(),
      provider,
      new InteractionCsrf(csrfKey),
      publicJwks(keys.signingKey),
      {
        rest: protectedResourceMetadata(publicBaseUrl, issuer),
        mcp: protectedResourceMetadata(mcpUrl, issuer),
      },
    );
  }

  /** Lets the provider answer one request on the raw Node objects. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.handler(req, res);
  }
}
