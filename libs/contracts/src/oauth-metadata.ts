import { ALL_SCOPES } from '#libs/scopes';

/** The OAuth issuer named by AUTH_URL: the URL without a trailing slash (what `iss` carries). */
export function oauthIssuer(authUrl: string): string {
  return authUrl.replace(/\/+$/, '');
}

/**
 * The claims of our access tokens beyond RFC 9068's (sub is the user id, client_id the client):
 * the organization chosen at consent and the grant, which resource servers refuse once revoked.
 */
export const ACCESS_TOKEN_CLAIMS = { organization: 'org_id', grant: 'grant_id' } as const;

/** RFC 9728 protected-resource metadata for a resource that trusts tokens of the auth-server. */
export function protectedResourceMetadata(resource: string, authorizationServer: string): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [oauthIssuer(authorizationServer)],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
  };
}
