export { missingCredentials, parseAuthorization, type ParsedCredential } from './credentials.js';
export { ApiKeyCache } from './api-key-cache.js';
export { CredentialVerifier } from './credential-verifier.js';
export { OAuthTokenVerifier, type TokenAudience } from './oauth-token-verifier.js';
export { CredentialGuard, type AuthenticatedRequest } from './credential.guard.js';
export { CurrentPrincipal } from './principal.decorator.js';
