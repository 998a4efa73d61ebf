import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { importJWK, jwtVerify, type JWK } from 'jose';
import Provider, { errors, type KoaContext, type OidcClient } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { loadConfig, publicUrlsSpec } from '#libs/config';
import { ACCESS_TOKEN_CLAIMS, accessTokenJwt, newPrefixedId, oauthIssuer, protectedResourceMetadata } from '#libs/contracts';
import type { Logger } from '#libs/observability';
import { ALL_SCOPES } from '#libs/scopes';
import { tooManyAttemptsMessage, type LoginLimiter } from '../account/login-limiter.js';
import { deviceCodePage, deviceDonePage, problemPage, type DeviceCodeProblem } from '../interactions/pages.js';
import { PAGE_HEADERS } from '../shared/page-headers.js';
import {
  ACCESS_TOKEN_TTL_SECONDS, AUTHORIZATION_CODE_TTL_SECONDS, DEVICE_CODE_TTL_SECONDS, DEVICE_POLL_INTERVAL_SECONDS, GRANT_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS,
} from './lifetimes.js';
import type { OAuthGrants } from './oauth-grants.js';
import { checkClientMetadata } from './client-policy.js';
import { DevicePollsRepository } from './device-polls.repository.js';
import { hashClientSecrets, prefixAccessTokens, prefixStoredArtifacts, storeByValueAt } from './oauth-artifacts.js';
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

const GRANT_TYPES = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'];
const CLIENT_AUTH_METHODS = ['none', 'client_secret_post'];

/**
 * Where the provider sends the browser for login and consent: a page under the interaction's
 * resume path (/oauth/authorize/{uid}/interaction, or /oauth/device/{uid}/interaction), so its
 * forms carry the resume cookie too and one POST finishes the authorization (see
 * InteractionsController.finish).
 */
export function interactionPath(returnTo: string): string {
  return `${new URL(returnTo).pathname}/interaction`;
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
 * authorization is pending. The last poll of each device code is kept (see DevicePollsRepository).
 */
function slowDownFastPolling(dataSource: DataSource) {
  const polls = new DevicePollsRepository();
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const body = ctx.body as { error?: unknown } | undefined;
    const deviceCode = ctx.oidc?.params?.device_code;
    if (ctx.path !== OAUTH_ROUTES.token || body?.error !== 'authorization_pending' || typeof deviceCode !== 'string') return;
    const last = await polls.lastPoll(dataSource.manager, deviceCode);
    const now = Date.now();
    await polls.recordPoll(dataSource.manager, deviceCode, new Date(now), DEVICE_CODE_TTL_SECONDS);
    if (last && now - last.getTime() < DEVICE_POLL_INTERVAL_SECONDS * 1000) {
      ctx.body = { error: 'slow_down', error_description: 'you are polling too quickly and should back off at a reasonable rate' };
    }
  };
}

const DISALLOWED_GRANT = 'requested grant type is not allowed for this client';
const DEVICE_GRANT_NOT_ALLOWED = 'urn:ietf:params:oauth:grant-type:device_code is not allowed for this client';

/**
 * Token and device endpoint errors as the contract's table names them, where oidc-provider
 * says otherwise: a grant the client was not registered for is unauthorized_client
 * (oidc-provider: invalid_request), and a code exchange without code_verifier misses a
 * parameter, so invalid_request (oidc-provider: invalid_grant).
 */
async function contractTokenErrors(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
  if (!body?.error || (ctx.path !== OAUTH_ROUTES.token && ctx.path !== OAUTH_ROUTES.device_authorization)) return;
  const params = ctx.oidc?.params ?? {};
  if (body.error === 'invalid_request' && (body.error_description === DISALLOWED_GRANT || body.error_description === DEVICE_GRANT_NOT_ALLOWED)) {
    ctx.body = { ...body, error: 'unauthorized_client' };
  } else if (body.error === 'invalid_grant' && params.grant_type === 'authorization_code' && !params.code_verifier) {
    ctx.body = { error: 'invalid_request', error_description: 'missing required parameter \'code_verifier\'' };
  }
}

/** The consent form posts (Approve and Deny) that resume the authorization on their own request. */
export const consentDecisions = new WeakSet<IncomingMessage>();

/**
 * Approve and Deny answer the redirect to the client (code and state, or error=access_denied)
 * as a 302, as the contract's steps say; oidc-provider answers 303. A sign-in keeps the 303
 * RFC 9700 asks for after a post that carried a password.
 */
async function foundRedirects(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.oidc?.route === 'resume' && ctx.status === 303 && consentDecisions.has(ctx.req)) ctx.status = 302;
}

/** The device pages are ours (rendered through oidc-provider): they carry every page's headers. */
const DEVICE_PAGE_ROUTES = new Set(['code_verification', 'device_resume']);

/** Headers that keep any other HTML of the provider (its error pages, a form_post) out of frames, unsniffed and unstored. */
const PROVIDER_HTML_HEADERS = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': PAGE_HEADERS['x-frame-options']!,
  'x-content-type-options': PAGE_HEADERS['x-content-type-options']!,
  'cache-control': PAGE_HEADERS['cache-control']!,
};

async function pageHeaders(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.type !== 'text/html') return;
  ctx.set(DEVICE_PAGE_ROUTES.has(ctx.oidc?.route ?? '') || ctx.state.ourPage === true ? { ...PAGE_HEADERS } : PROVIDER_HTML_HEADERS);
}

/** Requests that came over https as Fastify judges it: its own TLS, or X-Forwarded-Proto from a proxy TRUST_PROXY trusts. */
export const httpsRequests = new WeakSet<IncomingMessage>();

/** The client address of each request as Fastify judges it (TRUST_PROXY honoured), for the provider's limits. */
export const clientAddresses = new WeakMap<IncomingMessage, string>();

/** Anonymous client registration (RFC 7591) is limited per client IP: 429 with Retry-After past the limit. */
function limitRegistrations(limiter: LoginLimiter) {
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    if (ctx.path !== OAUTH_ROUTES.registration || ctx.method !== 'POST') return next();
    const allowance = await limiter.registration(clientAddresses.get(ctx.req) ?? 'unknown');
    if (allowance.allowed) return next();
    ctx.status = 429;
    ctx.set({ 'retry-after': String(allowance.retryAfterSeconds), 'cache-control': 'no-store' });
    ctx.body = { error: 'temporarily_unavailable', error_description: tooManyAttemptsMessage(allowance.retryAfterSeconds, 'client registrations from this address') };
  };
}

/**
 * An error of the authorization endpoint itself (a bad scope, a missing PKCE challenge) is shown
 * on a page, not sent to the redirect_uri: until the user has approved the client, its
 * redirect_uri is only what an anonymous registration claimed, and a redirect there would make
 * this server an open redirector. Errors after sign-in and consent (access_denied) redirect.
 */
async function untrustedErrorsOnAPage(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  const mode = ctx.path === OAUTH_ROUTES.authorization ? ctx.query.response_mode : undefined;
  if (mode !== undefined && mode !== 'query') {
    // A fragment or form_post answer would carry an error to the redirect_uri where the check below cannot see it.
    ctx.status = 400;
    ctx.state.ourPage = true;
    ctx.body = problemPage('The application\'s request is not valid (invalid_request): response_mode must be query. Go back to the application and start again.');
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
  ctx.body = problemPage(`The application's request is not valid (${error}): ${location.searchParams.get('error_description') ?? 'no details given'}. Go back to the application and start again.`);
}

/**
 * A token the client obtained (a code or device code exchanged, a refresh) keeps it from being
 * swept as unused (see OAuthStoreAdapter.touchClient); anonymous requests that merely name it do not.
 */
function touchClients(dataSource: DataSource) {
  const clients = new OAuthStoreAdapter('Client', dataSource);
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    await next();
    const clientId = ctx.oidc?.client?.clientId;
    if (clientId && ctx.path === OAUTH_ROUTES.token && ctx.status === 200) await clients.touchClient(clientId);
  };
}

/**
 * The provider's cookies are Secure on a request that came over https (TRUST_PROXY honoured as
 * everywhere else), and on every request when the public URL is https, even where TLS ends at
 * an ingress that does not say so: the request then counts as secure, which is what
 * oidc-provider and Koa's cookies decide Secure by.
 */
function secureCookies(httpsIssuer: boolean) {
  return async (ctx: KoaContext, next: () => Promise<void>): Promise<void> => {
    if (httpsIssuer || httpsRequests.has(ctx.req)) Object.defineProperty(ctx.request, 'secure', { value: true });
    await next();
  };
}

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
function announceRevokedGrants(provider: Provider, grants: OAuthGrants, logger: Logger) {
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
function revokeJwtAccessTokens(issuer: string, signingKey: Record<string, unknown>, grants: OAuthGrants) {
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
    if (claims.client_id === clientId && typeof grantId === 'string' && typeof claims.sub === 'string') await grants.revokeForAccount(claims.sub, grantId);
  };
}

/** The public half of the signing key, as a JWK Set. */
function publicJwks(signingKey: Record<string, unknown>): { keys: JWK[] } {
  const { kty, crv, x, y, kid, alg, use } = signingKey;
  return { keys: [{ kty, crv, x, y, kid, alg, use } as JWK] };
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
    /** The public keys that verify access tokens. */
    readonly jwks: { keys: JWK[] },
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

  static async create(env: Record<string, string | undefined>, dataSource: DataSource, grants: OAuthGrants, limiter: LoginLimiter, logger: Logger): Promise<OAuthProvider> {
    const { authUrl, publicBaseUrl, mcpUrl } = loadConfig(publicUrlsSpec, env);
    const issuer = oauthIssuer(authUrl);
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
        Grant: GRANT_TTL_SECONDS,
        Interaction: 3600,
        Session: 14 * 24 * 3600,
      },
      // Refresh tokens for every client allowed the grant, without offline_access; one use each.
      issueRefreshToken: (_ctx: unknown, client: OidcClient) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      // Tokens outlive the browser session they were approved in (oidc-provider ties them to it without offline_access).
      expiresWithSession: () => false,
      interactions: { url: (_ctx: unknown, interaction: { returnTo: string }) => interactionPath(interaction.returnTo) },
      // Resource servers build a Principal from sub (the user id), org_id and scope, and refuse revoked grant_ids.
      extraTokenClaims: async (_ctx: unknown, token: { grantId?: string }) => {
        const organizationId = await grants.organizationOf(token.grantId);
        return organizationId && token.grantId ? { [ACCESS_TOKEN_CLAIMS.organization]: organizationId, [ACCESS_TOKEN_CLAIMS.grant]: token.grantId } : {};
      },
      // Revoking any token of a grant, access token included, revokes the grant.
      revokeGrantPolicy: () => true,
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
      routes: OAUTH_ROUTES,
      extraClientMetadata: { properties: ['client_name'], validator: checkClientMetadata },
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
    return new OAuthProvider(issuer, authorizationServerMetadata(issuer), provider.callback(), provider, csrfKey, publicJwks(keys.signingKey), {
      rest: protectedResourceMetadata(publicBaseUrl, issuer),
      mcp: protectedResourceMetadata(mcpUrl, issuer),
    });
  }

  /** Lets the provider answer one request on the raw Node objects. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    return this.handler(req, res);
  }
}
