import { ALL_SCOPES } from '#libs/scopes';

/** The OAuth issuer named by AUTH_URL: the URL without a trailing slash (what `iss` carries). */
export function oauthIssuer(authUrl: string): string {
  return authUrl.replace(/\/+$/, '');
}

/**
 * The organizer dashboard (the api-gateway's `/app`): a first-party public client, configured in
 * the auth-server rather than registered, whose sign-in skips the consent page.
 */
export const DASHBOARD_CLIENT_ID = 'dashboard';
/** The dashboard's only redirect URI, at the origin of PUBLIC_BASE_URL (the api-gateway's). */
export const DASHBOARD_CALLBACK_PATH = '/app/callback';

/**
 * The claims of our access tokens beyond RFC 9068's (sub is the user id, client_id the client):
 * the organization chosen at consent and the grant, which resource servers refuse once revoked.
 */
export const ACCESS_TOKEN_CLAIMS = { organization: 'org_id', grant: 'grant_id' } as const;

/**
 * The prefix every OAuth artifact carries on the wire, so a leaked one is recognised (by secret
 * scanners too) and one kind is never taken for another. An access token is `oat_` and the
 * signed JWT.
 */
export const OAUTH_ARTIFACT_PREFIXES = {
  authorizationCode: 'ac_',
  accessToken: 'oat_',
  refreshToken: 'ort_',
  deviceCode: 'dc_',
} as const;

/** The JWT behind an `oat_` access token; undefined for any other value. */
export function accessTokenJwt(token: string): string | undefined {
  return token.startsWith(OAUTH_ARTIFACT_PREFIXES.accessToken) ? token.slice(OAUTH_ARTIFACT_PREFIXES.accessToken.length) : undefined;
}

/** RFC 9728 protected-resource metadata for a resource that trusts tokens of the auth-server. */
export function protectedResourceMetadata(resource: string, authorizationServer: string): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [oauthIssuer(authorizationServer)],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
  };
}
