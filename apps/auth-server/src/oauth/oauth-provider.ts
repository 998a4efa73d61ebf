import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, { errors, type KoaContext, type OidcClient } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { loadConfig, publicUrlsSpec } from '#libs/config';
import { newPrefixedId, protectedResourceMetadata } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { ALL_SCOPES } from '#libs/scopes';
import { deviceCodePage, deviceDonePage, type DeviceCodeProblem } from '../interactions/pages.js';
import { loadOrCreateOAuthKeys } from './oauth-keys.js';
import { OAuthStoreAdapter } from './oauth-store.adapter.js';

/** The provider's routes, all under /oauth at AUTH_URL. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  device_authorization: '/oauth/device_authorization',
  code_verification: '/oauth/device',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  // Disabled or not served (no route reaches them); named so nothing lands outside /oauth.
  userinfo: '/oauth/userinfo',
  introspection: '/oauth/introspect',
  end_session: '/oauth/session/end',
  pushed_authorization_request: '/oauth/par',
  backchannel_authentication: '/oauth/backchannel',
} as const;

export const DEVICE_CODE_TTL_SECONDS = 600;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'];
const CLIENT_AUTH_METHODS = ['none', 'client_secret_post'];

/** Where the provider sends the browser for login and consent. */
export const INTERACTION_PATH = '/oauth/interaction';

/** The organization chosen at consent, kept beside the grant (and revoked with it). */
const GRANT_ORGANIZATION_MODEL = 'GrantOrganization';

/** Keeps the organization chosen for a grant, so every access token of the grant names it. */
export async function saveGrantOrganization(dataSource: DataSource, grantId: string, organizationId: string): Promise<void> {
  await new OAuthStoreAdapter(GRANT_ORGANIZATION_MODEL, dataSource).upsert(grantId, { grantId, organizationId }, REFRESH_TOKEN_TTL_SECONDS);
}

async function grantOrganization(dataSource: DataSource, grantId: string | undefined): Promise<string | undefined> {
  if (!grantId) return undefined;
  const payload = await new OAuthStoreAdapter(GRANT_ORGANIZATION_MODEL, dataSource).find(grantId);
  return typeof payload?.organizationId === 'string' ? payload.organizationId : undefined;
}

/** RFC 8414 metadata: the contract's values, built from the same settings as the provider. */
export function authorizationServerMetadata(issuer: string): Record<string, unknown> {
  const at = (path: string) => `${issuer}${path}`;
  return {
    issuer,
    authorization_endpoint: at(OAUTH_ROUTES.authorization),
    token_endpoint: at(OAUTH_ROUTES.token),
    registration_endpoint: at(OAUTH_ROUTES.registration),
    revocation_endpoint: at(OAUTH_ROUTES.revocation),
    device_authorization_endpoint: at(OAUTH_ROUTES.device_authorization),
    jwks_uri: at(OAUTH_ROUTES.jwks),
    response_types_supported: ['code'],
    grant_types_supported: GRANT_TYPES,
    code_challenge_methods_supported: ['S256'],
    scopes_supported: [...ALL_SCOPES],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
  };
}

/** The user code from `?user_code=` of GET /oauth/device, taken off the URL to prefill the form. */
export const deviceCodePrefill = new WeakMap<IncomingMessage, string>();

/** What oidc-provider's device pages receive (its context and the re-render errors). */
interface DeviceContext {
  req: IncomingMessage;
  body: unknown;
  status: number;
  oidc: { client?: { clientName?: string; clientId: string } };
}

const DEVICE_PROBLEMS: Record<string, DeviceCodeProblem> = {
  NotFoundError: 'unknown',
  ExpiredError: 'expired',
  AlreadyUsedError: 'used',
  NoCodeError: 'missing',
  AbortedError: 'denied',
};

function xsrfOf(form: string): string {
  return /name="xsrf" value="([^"]*)"/.exec(form)?.[1] ?? '';
}

/** The device page: one field "Code" and "Continue", which goes straight on to sign-in and consent. */
function renderDeviceCodePage(ctx: DeviceContext, form: string, userCode?: string, err?: { name?: string; userCode?: string }): void {
  const problem = err ? (DEVICE_PROBLEMS[err.name ?? ''] ?? 'failed') : undefined;
  ctx.body = deviceCodePage({ xsrf: xsrfOf(form), userCode: err?.userCode ?? userCode ?? deviceCodePrefill.get(ctx.req) ?? '', problem });
  if (problem && problem !== 'denied') ctx.status = 400;
}

/**
 * slow_down (RFC 8628 section 3.5): a device code polled again within the interval while
 * authorization is pending. The last poll of each device code is kept in the store.
 */
function slowDownFastPolling(dataSource: DataSource) {
  const polls = new OAuthStoreAdapter('DevicePoll', dataSource);
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const body = ctx.body as { error?: unknown } | undefined;
    const deviceCode = ctx.oidc?.params?.device_code;
    if (ctx.path !== OAUTH_ROUTES.token || body?.error !== 'authorization_pending' || typeof deviceCode !== 'string') return;
    const last = await polls.find(deviceCode);
    const now = Date.now();
    await polls.upsert(deviceCode, { polledAt: now }, DEVICE_CODE_TTL_SECONDS);
    if (typeof last?.polledAt === 'number' && now - last.polledAt < DEVICE_POLL_INTERVAL_SECONDS * 1000) {
      ctx.body = { error: 'slow_down', error_description: 'you are polling too quickly and should back off at a reasonable rate' };
    }
  };
}

const DISALLOWED_GRANT = 'requested grant type is not allowed for this client';

/**
 * oidc-provider answers a grant the client was not registered for with invalid_request; the
 * contract (and RFC 6749 section 5.2) name that unauthorized_client.
 */
async function unauthorizedClientForDisallowedGrants(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
  if (ctx.path === OAUTH_ROUTES.token && body?.error === 'invalid_request' && body.error_description === DISALLOWED_GRANT) {
    ctx.body = { ...body, error: 'unauthorized_client' };
  }
}

/** oidc-provider, set up for pure OAuth 2.1 on the auth schema. */
export class OAuthProvider {
  private constructor(
    readonly issuer: string,
    readonly metadata: Record<string, unknown>,
    private readonly handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
    /** The provider itself, for the interaction pages. */
    readonly provider: Provider,
    private readonly csrfKey: string,
    /** RFC 9728 metadata for the REST API (PUBLIC_BASE_URL) and the MCP surface (MCP_URL). */
    readonly protectedResources: { rest: Record<string, unknown>; mcp: Record<string, unknown> },
  ) {}

  /** The anti-CSRF token of one interaction: an HMAC of its uid under a server-side key. */
  csrfToken(uid: string): string {
    return createHmac('sha256', this.csrfKey).update(`interaction:${uid}`).digest('base64url');
  }

  csrfTokenValid(uid: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(uid));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  static async create(env: Record<string, string | undefined>, dataSource: DataSource, logger: Logger): Promise<OAuthProvider> {
    const { authUrl, publicBaseUrl, mcpUrl } = loadConfig(publicUrlsSpec, env);
    const issuer = authUrl.replace(/\/+$/, '');
    const resources = new Set([publicBaseUrl, mcpUrl]);
    const keys = await loadOrCreateOAuthKeys(dataSource);
    const csrfKey = keys.cookieKeys[0];
    if (!csrfKey) throw new Error('The OAuth cookie keys are missing.');

    const provider = new Provider(issuer, {
      adapter: (model: string) => new OAuthStoreAdapter(model, dataSource),
      jwks: { keys: [keys.signingKey] },
      cookies: { keys: keys.cookieKeys },
      scopes: [...ALL_SCOPES],
      clientAuthMethods: CLIENT_AUTH_METHODS,
      clientDefaults: {
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'ES256',
      },
      enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
      pkce: { required: () => true },
      ttl: {
        AccessToken: ACCESS_TOKEN_TTL_SECONDS,
        AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
        DeviceCode: DEVICE_CODE_TTL_SECONDS,
        RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
        Grant: REFRESH_TOKEN_TTL_SECONDS,
        Interaction: 3600,
        Session: 14 * 24 * 3600,
      },
      // Refresh tokens for every client allowed the grant, without offline_access; one use each.
      issueRefreshToken: (_ctx: unknown, client: OidcClient) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}/${interaction.uid}` },
      // The gateway builds a Principal from sub (the user id, the provider's default) and org_id.
      extraTokenClaims: async (_ctx: unknown, token: { grantId?: string }) => {
        const organizationId = await grantOrganization(dataSource, token.grantId);
        return organizationId ? { org_id: organizationId } : {};
      },
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
      routes: OAUTH_ROUTES,
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true, initialAccessToken: false, idFactory: () => newPrefixedId('cli') },
        revocation: { enabled: true },
        deviceFlow: {
          enabled: true,
          userCodeInputSource: (ctx: DeviceContext, form: string, _out: unknown, err?: { name?: string; userCode?: string }) => {
            renderDeviceCodePage(ctx, form, undefined, err);
          },
          // Not reached from our page, which confirms with the code; a bare POST gets the page again.
          userCodeConfirmSource: (ctx: DeviceContext, form: string, _client: unknown, _info: unknown, userCode: string) => {
            renderDeviceCodePage(ctx, form, userCode);
          },
          successSource: (ctx: DeviceContext) => {
            const client = ctx.oidc.client;
            ctx.body = deviceDonePage(client?.clientName ?? client?.clientId ?? 'The application');
          },
        },
        userinfo: { enabled: false },
        introspection: { enabled: false },
        resourceIndicators: {
          enabled: true,
          // REST unless the client asked for a resource; a token request without one gets the granted one.
          defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf ?? publicBaseUrl,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx: unknown, resource: string) => {
            if (!resources.has(resource)) throw new errors.InvalidTarget('resource must be the REST API or the MCP surface');
            return {
              scope: ALL_SCOPES.join(' '),
              audience: resource,
              accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
              accessTokenFormat: 'jwt',
              jwt: { sign: { alg: 'ES256' } },
            };
          },
        },
      },
    });
    provider.on('device_authorization.success', (_ctx: never, body: never) => {
      (body as Record<string, unknown>).interval = DEVICE_POLL_INTERVAL_SECONDS;
    });
    provider.use(unauthorizedClientForDisallowedGrants);
    provider.use(slowDownFastPolling(dataSource));
    provider.on('server_error', (_ctx: never, err: never) => {
      logger.error({ err }, 'OAuth provider error');
    });
    return new OAuthProvider(issuer, authorizationServerMetadata(issuer), provider.callback(), provider, csrfKey, {
      rest: protectedResourceMetadata(publicBaseUrl, issuer),
      mcp: protectedResourceMetadata(mcpUrl, issuer),
    });
  }

  /** Lets the provider answer one request on the raw Node objects. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.handler(req, res);
  }
}
