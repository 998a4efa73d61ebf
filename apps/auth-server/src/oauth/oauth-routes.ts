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

/**
 * Where the provider sends the browser for login and consent: a page under the interaction's
 * resume path (/oauth/authorize/{uid}/interaction, or /oauth/device/{uid}/interaction), so its
 * forms carry the resume cookie too and one POST finishes the authorization (see
 * InteractionsController.finish).
 */
export function interactionPath(returnTo: string): string {
  return `${new URL(returnTo).pathname}/interaction`;
}
