import type { Bus, Subscription } from '#libs/bus';
import { API_KEY_PATTERN, type Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { ApiKeyCache } from './api-key-cache.js';
import type { ParsedCredential } from './credentials.js';
import { OAuthTokenVerifier, type TokenAudience } from './oauth-token-verifier.js';

/**
 * Turns a parsed credential into a Principal: API keys through auth.apikeys.verify, cached;
 * OAuth access tokens locally, for this edge's audience.
 */
export class CredentialVerifier {
  private subscription?: Subscription;
  private readonly tokens: OAuthTokenVerifier;

  constructor(
    private readonly bus: Bus,
    audience: TokenAudience,
    private readonly cache = new ApiKeyCache(),
  ) {
    this.tokens = new OAuthTokenVerifier(bus, audience);
  }

  /** Follow revocations and tier changes, which evict at once on every replica. */
  async start(): Promise<void> {
    this.subscription = await this.bus.broadcast(
      ['auth.apikey.revoked', 'auth.organization.tier_changed', 'auth.oauth.grant_revoked'],
      async (event) => {
        if (event.type === 'auth.apikey.revoked') {
          this.cache.evictCredential(event.data.apiKeyId);
        } else if (event.type === 'auth.oauth.grant_revoked') {
          this.tokens.grantRevoked(event.data.grantId);
        } else {
          this.cache.evictOrganization(event.orgid);
          this.tokens.tierChanged(event.orgid);
        }
      },
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }

  async verify(credential: Exclude<ParsedCredential, { kind: 'none' }>): Promise<Principal> {
    if (credential.kind === 'bearer_token') return this.tokens.verify(credential.token);
    if (!API_KEY_PATTERN.test(credential.key)) {
      throw new ProblemError('invalid_credentials', 'The API key is not recognized.');
    }
    const hash = ApiKeyCache.hash(credential.key);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const generation = this.cache.generation;
    const principal = await this.bus.request('auth.apikeys.verify', { keyHash: hash });
    this.cache.setUnlessEvicted(hash, principal, generation);
    return principal;
  }
}
