import { ALL_SCOPES } from '#libs/scopes';

/** RFC 9728 protected-resource metadata for a resource that trusts tokens of the auth-server. */
export function protectedResourceMetadata(resource: string, authorizationServer: string): Record<string, unknown> {
  return {
    resource,
    authorization_servers: [authorizationServer.replace(/\/+$/, '')],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
  };
}
