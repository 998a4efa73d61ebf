import { ALL_SCOPES } from '#libs/scopes';
import { OAUTH_ROUTES } from './oauth-routes.js';

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'];
export const CLIENT_AUTH_METHODS = ['none', 'client_secret_post'];

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
