import { createHash } from 'node:crypto';
import type { Principal } from '#libs/contracts';

interface Entry {
  principal: Principal;
  expiresAt: number;
}

/**
 * Verified API keys, briefly, keyed by the key's SHA-256 (the plain key is never kept).
 * Revocation and tier events evict at once; TTL bounds staleness if an event is missed.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private evictions = 0;

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  static hash(key: string): string {
    return createHash('sha256').update(key).digest('hex');
  }

  get(hash: string): Principal | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.principal;
  }

  /** Counts evictions: a verification started before an eviction must not cache its answer. */
  get generation(): number {
    return this.evictions;
  }

  /**
   * Caches a principal verified since `generation`, unless an eviction arrived meanwhile (the
   * answer may predate a revocation; the next request verifies again).
   */
  setUnlessEvicted(hash: string, principal: Principal, generation: number): void {
    if (generation === this.evictions) this.set(hash, principal);
  }

  set(hash: string, principal: Principal): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, { principal, expiresAt: this.now() + this.ttlMs });
  }

  evictCredential(credentialId: string): void {
    this.evictions++;
    for (const [hash, entry] of this.entries) if (entry.principal.credentialId === credentialId) this.entries.delete(hash);
  }

  evictOrganization(organizationId: string): void {
    this.evictions++;
    for (const [hash, entry] of this.entries) if (entry.principal.organizationId === organizationId) this.entries.delete(hash);
  }

  get size(): number {
    return this.entries.size;
  }
}
