import { createLocalJWKSet, errors as joseErrors, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from 'jose';
import type { Bus } from '#libs/bus';
import type { Tier } from '#libs/config';
import { ACCESS_TOKEN_CLAIMS, accessTokenJwt, type MemberRole, type Principal, ROLE_SCOPES } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { parseScopeString } from '#libs/scopes';

/** The surface a verifier guards: tokens must come from `issuer` and name `audience` (RFC 8707). */
export interface TokenAudience {
  issuer: string;
  audience: string;
}

/** How long a revoked grant is refused: past the longest access token lifetime, with room for skew. */
const REVOKED_GRANT_MEMORY_MS = (3600 + 300) * 1000;
const TIER_TTL_MS = 60_000;
/** How long a user's role in an organization is trusted before it is asked again. */
const ROLE_TTL_MS = 60_000;
const REVOCATIONS_REFRESH_MS = 60_000;
/** A token signed by a key we do not know refetches the key set, at most this often. */
const JWKS_REFETCH_INTERVAL_MS = 30_000;
const CLOCK_TOLERANCE_SECONDS = 5;
/** Expired revocations are swept when the map reaches this size. */
const PURGE_AT = 10_000;

function invalidToken(detail = 'The access token is not recognized or has expired.'): ProblemError {
  return new ProblemError('invalid_credentials', detail);
}

function claim(payload: JWTPayload, name: string): string {
  const value = payload[name];
  if (typeof value !== 'string' || value.length === 0) throw invalidToken();
  return value;
}

/**
 * Verifies OAuth access tokens locally: `oat_` and a signed JWT (RFC 9068) from the auth-server whose key
 * set is fetched once over the bus and cached, bound to this surface's audience, of a grant
 * not revoked. Revocations arrive as auth.oauth.grant_revoked events (every replica hears
 * them); the ones before this replica started are loaded once. Organization tiers are cached
 * briefly and evicted on auth.organization.tier_changed. The token's scopes are bounded by
 * what the user's current role in the organization allows (ROLE_SCOPES), the role cached for
 * a minute at most.
 */
export class OAuthTokenVerifier {
  private keySet?: { getKey: JWTVerifyGetKey; fetchedAt: number };
  private readonly revokedGrants = new Map<string, number>();
  private revocationsLoaded?: Promise<void>;
  private revocationsLoadedAt = 0;
  private readonly tiers = new Map<string, { tier: Tier; expiresAt: number }>();
  private readonly roles = new Map<string, { role: MemberRole; expiresAt: number }>();
  /** Counts tier evictions: a lookup that started before one must not cache its answer. */
  private tierEvictions = 0;

  constructor(
    private readonly bus: Bus,
    private readonly surface: TokenAudience,
    private readonly now: () => number = Date.now,
  ) {}

  grantRevoked(grantId: string): void {
    const now = this.now();
    if (this.revokedGrants.size >= PURGE_AT) for (const [id, until] of this.revokedGrants) if (until <= now) this.revokedGrants.delete(id);
    this.revokedGrants.set(grantId, now + REVOKED_GRANT_MEMORY_MS);
  }

  tierChanged(organizationId: string): void {
    this.tierEvictions++;
    this.tiers.delete(organizationId);
  }

  async verify(token: string): Promise<Principal> {
    const jwt = accessTokenJwt(token);
    if (jwt === undefined) throw invalidToken();
    const payload = await this.verifySignature(jwt);
    const audiences = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? []);
    if (!audiences.includes(this.surface.audience)) {
      throw invalidToken(`The access token was issued for another resource; this one is ${this.surface.audience}.`);
    }
    const grantId = claim(payload, ACCESS_TOKEN_CLAIMS.grant);
    const organizationId = claim(payload, ACCESS_TOKEN_CLAIMS.organization);
    if (await this.isRevoked(grantId)) throw new ProblemError('revoked_credentials', "The access token's grant was revoked.");
    const userId = claim(payload, 'sub');
    const [tier, role] = await Promise.all([this.tierOf(organizationId), this.roleOf(organizationId, userId)]);
    const allowed = ROLE_SCOPES[role];
    return {
      userId,
      organizationId,
      tier,
      livemode: true,
      scopes: parseScopeString(typeof payload.scope === 'string' ? payload.scope : '').scopes.filter((scope) => allowed.includes(scope)),
      credentialId: grantId,
      kind: 'oauth',
      clientId: claim(payload, 'client_id'),
    };
  }

  private async verifySignature(token: string): Promise<JWTPayload> {
    const options = { issuer: this.surface.issuer, typ: 'at+jwt', algorithms: ['ES256'], clockTolerance: CLOCK_TOLERANCE_SECONDS };
    try {
      return (await jwtVerify(token, await this.keys(), options)).payload;
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey) || !this.mayRefetchKeys()) throw this.asProblem(err);
    }
    this.keySet = undefined;
    try {
      return (await jwtVerify(token, await this.keys(), options)).payload;
    } catch (err) {
      throw this.asProblem(err);
    }
  }

  private asProblem(err: unknown): unknown {
    if (err instanceof ProblemError) return err;
    if (err instanceof joseErrors.JWTExpired) return invalidToken('The access token has expired.');
    return err instanceof joseErrors.JOSEError ? invalidToken() : err;
  }

  private async keys(): Promise<JWTVerifyGetKey> {
    if (!this.keySet) {
      const jwks = await this.bus.request('auth.oauth.jwks', {});
      this.keySet = { getKey: createLocalJWKSet(jwks), fetchedAt: this.now() };
    }
    return this.keySet.getKey;
  }

  private mayRefetchKeys(): boolean {
    return !this.keySet || this.now() - this.keySet.fetchedAt >= JWKS_REFETCH_INTERVAL_MS;
  }

  private async isRevoked(grantId: string): Promise<boolean> {
    await this.loadRevocations();
    const until = this.revokedGrants.get(grantId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.revokedGrants.delete(grantId);
    return false;
  }

  /**
   * The grants revoked before this replica heard the events: loaded before its first OAuth
   * answer (again after a failure), then refreshed in the background every minute, which
   * covers events missed while the connection to NATS was down.
   */
  private async loadRevocations(): Promise<void> {
    if (this.revocationsLoaded) {
      await this.revocationsLoaded;
      if (this.now() - this.revocationsLoadedAt >= REVOCATIONS_REFRESH_MS) void this.fetchRevocations().catch(() => undefined);
      return;
    }
    this.revocationsLoaded = this.fetchRevocations().catch((err: unknown) => {
      this.revocationsLoaded = undefined;
      throw err;
    });
    await this.revocationsLoaded;
  }

  private async fetchRevocations(): Promise<void> {
    this.revocationsLoadedAt = this.now();
    const { grantIds } = await this.bus.request('auth.oauth.revocations', {});
    for (const id of grantIds) if (!this.revokedGrants.has(id)) this.grantRevoked(id);
  }

  private async roleOf(organizationId: string, userId: string): Promise<MemberRole> {
    const key = `${organizationId} ${userId}`;
    const cached = this.roles.get(key);
    if (cached && cached.expiresAt > this.now()) return cached.role;
    const { role } = await this.bus.request('auth.members.role', { organizationId, userId });
    if (this.roles.size >= PURGE_AT) for (const [k, entry] of this.roles) if (entry.expiresAt <= this.now()) this.roles.delete(k);
    this.roles.set(key, { role, expiresAt: this.now() + ROLE_TTL_MS });
    return role;
  }

  private async tierOf(organizationId: string): Promise<Tier> {
    const cached = this.tiers.get(organizationId);
    if (cached && cached.expiresAt > this.now()) return cached.tier;
    const generation = this.tierEvictions;
    const { tier } = await this.bus.request('auth.orgs.tier', { organizationId });
    if (generation === this.tierEvictions) this.tiers.set(organizationId, { tier, expiresAt: this.now() + TIER_TTL_MS });
    return tier;
  }
}
