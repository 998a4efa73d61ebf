import { type Configuration, errors, interactionPolicy, type KoaContext, type OidcClient, type PolicyContext } from 'oidc-provider';
import type { DataSource } from 'typeorm';
import { ACCESS_TOKEN_CLAIMS, newPrefixedId } from '#libs/contracts';
import { ALL_SCOPES } from '#libs/scopes';
import { checkClientMetadata } from './client-policy.js';
import { devicePages } from './device-pages.js';
import { firstPartyClients, isFirstParty, ORGANIZATION_PARAM, requestedOrganization } from './first-party.js';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  DEVICE_CODE_TTL_SECONDS,
  GRANT_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
} from './lifetimes.js';
import { invalidRequestPage } from './middleware/authorization-errors.js';
import type { OAuthGrants } from './oauth-grants.js';
import type { OAuthKeys } from './oauth-keys.js';
import { CLIENT_AUTH_METHODS } from './oauth-metadata.js';
import { interactionPath, OAUTH_ROUTES } from './oauth-routes.js';
import { OAuthStoreAdapter } from './oauth-store.adapter.js';

export interface ProviderSettings {
  dataSource: DataSource;
  keys: OAuthKeys;
  grants: OAuthGrants;
  /** The REST API's resource (PUBLIC_BASE_URL), the default one. */
  publicBaseUrl: string;
  /** The MCP surface's resource (MCP_URL). */
  mcpUrl: string;
  /** The ids of the user's organizations, oldest membership first. */
  organizationsOf: (userId: string) => Promise<string[]>;
}

/**
 * oidc-provider's prompts, with one more reason to ask for a sign-in (a first-party client always
 * asks) and one more reason to ask for consent: a first-party client's grant
 * in the session acts for another organization than the request's (see requestedOrganization).
 * Our interaction then makes a new grant for it, so switching organizations never moves the
 * earlier grant's tokens. It names every requested scope of each resource as undecided: the new
 * grant decides them all.
 */
function prompts(grants: OAuthGrants, organizationsOf: ProviderSettings['organizationsOf']): unknown {
  const policy = interactionPolicy.base();
  // A first-party client's every authorization asks for the password, whatever the request says: a browser the
  // auth-server remembers (after the dashboard signed out, at a shared computer) never signs the next person in silently.
  policy.get('login')?.checks.push(
    new interactionPolicy.Check(
      'first_party_sign_in',
      'a first-party client signs in with the password every time',
      ({ oidc }: PolicyContext) => isFirstParty(oidc.client.clientId) && !oidc.result?.login,
      () => ({}),
    ),
  );
  policy.get('consent')?.checks.push(
    new interactionPolicy.Check(
      'organization_changed',
      'the grant acts for another organization than the one requested',
      async ({ oidc }: PolicyContext) => {
        const { accountId } = oidc.session;
        if (!isFirstParty(oidc.client.clientId) || !accountId) return false;
        const grantId = oidc.session.grantIdFor(oidc.client.clientId);
        if (!grantId) return false;
        const wanted = requestedOrganization(await organizationsOf(accountId), oidc.params[ORGANIZATION_PARAM]);
        return (await grants.organizationOf(grantId)) !== wanted;
      },
      ({ oidc }: PolicyContext) => ({
        missingResourceScopes: Object.fromEntries(
          Object.entries(oidc.resourceServers).map(([resource, server]) => [
            resource,
            [...oidc.requestParamScopes].filter((scope) => server.scopes.has(scope)),
          ]),
        ),
      }),
    ),
  );
  return policy;
}

/** oidc-provider's configuration: pure OAuth 2.1 on the auth schema. */
export function providerConfiguration({
  dataSource,
  keys,
  grants,
  publicBaseUrl,
  mcpUrl,
  organizationsOf,
}: ProviderSettings): Configuration {
  const resources = new Set([publicBaseUrl, mcpUrl]);
  return {
    adapter: (model: string) => new OAuthStoreAdapter(model, dataSource),
    // An error oidc-provider answers with a page of its own (an unknown client, a redirect_uri it was not registered with) gets ours.
    renderError: (ctx: KoaContext, out: { error: string; error_description?: string }) => {
      ctx.type = 'html';
      ctx.state.ourPage = true;
      ctx.body = invalidRequestPage(out.error, out.error_description);
    },
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
    interactions: {
      url: (_ctx: unknown, interaction: { returnTo: string }) => interactionPath(interaction.returnTo),
      policy: prompts(grants, organizationsOf),
    },
    // Our own clients (the dashboard), which need no registration.
    clients: firstPartyClients(publicBaseUrl),
    // The organization a first-party client's sign-in acts for; third-party clients choose it on the consent page.
    extraParams: [ORGANIZATION_PARAM],
    // Resource servers build a Principal from sub (the user id), org_id and scope, and refuse revoked grant_ids.
    extraTokenClaims: async (_ctx: unknown, token: { grantId?: string }) => {
      const organizationId = await grants.organizationOf(token.grantId);
      return organizationId && token.grantId
        ? { [ACCESS_TOKEN_CLAIMS.organization]: organizationId, [ACCESS_TOKEN_CLAIMS.grant]: token.grantId }
        : {};
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
      deviceFlow: { enabled: true, ...devicePages },
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
  };
}
