import type { Bus, Subscription } from '#libs/bus';
import { API_KEY_PATTERN, type Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { ApiKeyCache } from './api-key-cache.js';
import type { ParsedCredential } from './credentials.js';

/** Turns a parsed credential into a Principal: API keys through auth.apikeys.verify, cached. */
export class CredentialVerifier {
  private subscription?: Subscription;

  constructor(
    private readonly bus: Bus,
    private readonly cache = new ApiKeyCache(),
  ) {}

  /** Evict cached keys when a key is revoked or its organization's tier changes (every replica). */
  async start(): Promise<void> {
    this.subscription = await this.bus.broadcast(['auth.apikey.revoked', 'auth.organization.tier_changed'], async (event) => {
      if (event.type === 'auth.apikey.revoked') this.cache.evictCredential((event.data as { apiKeyId: string }).apiKeyId);
      else this.cache.evictOrganization(event.orgid);
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
  }

  async verify(credential: Exclude<ParsedCredential, { kind: 'none' }>): Promise<Principal> {
    if (credential.kind === 'bearer_token') {
      throw new ProblemError('invalid_credentials', 'The access token is not recognized or has expired.');
    }
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
