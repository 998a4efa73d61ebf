import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DATA_SOURCE, Outbox, type Tx } from '#libs/runtime';
import { isScope, type Scope } from '#libs/scopes';
import { GRANT_TTL_SECONDS, REVOKED_GRANT_TTL_SECONDS } from './lifetimes.js';
import { OAuthStoreAdapter } from './oauth-store.adapter.js';

/** The organization chosen at consent, keyed by grant id (its payload names no grant, so revoking the grant's artifacts keeps it until announced). */
const GRANT_ORGANIZATION_MODEL = 'GrantOrganization';
/** Grants revoked within an access token's lifetime. */
const REVOKED_GRANT_MODEL = 'RevokedGrant';

/** One app a user has connected: a live grant with its client and organization. */
export interface ConnectedApp {
  grantId: string;
  clientId: string;
  clientName: string | null;
  organizationId: string | null;
  /** The resource (REST or MCP) each set of scopes was granted for. */
  resources: { resource: string; scopes: Scope[] }[];
  grantedAt: Date;
}

interface ConnectedAppRow {
  id: string;
  grant: { clientId: string; iat?: number; resources?: Record<string, string> };
  client: { client_name?: string } | null;
  organization: { organizationId?: string } | null;
}

/**
 * OAuth grants beyond what oidc-provider keeps: the organization each acts for, the user's
 * connected apps, and revocation, which is recorded and announced on auth.oauth.grant_revoked
 * in one transaction so every resource server refuses the grant's unexpired access tokens.
 */
@Injectable()
export class OAuthGrants {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
  ) {}

  async setOrganization(grantId: string, organizationId: string): Promise<void> {
    await new OAuthStoreAdapter(GRANT_ORGANIZATION_MODEL, this.dataSource).upsert(grantId, { organizationId }, GRANT_TTL_SECONDS);
  }

  async organizationOf(grantId: string | undefined, db: DataSource | EntityManager = this.dataSource): Promise<string | undefined> {
    if (!grantId) return undefined;
    const payload = await new OAuthStoreAdapter(GRANT_ORGANIZATION_MODEL, db).find(grantId);
    return typeof payload?.organizationId === 'string' ? payload.organizationId : undefined;
  }

  /** The user's connected apps, newest first. */
  async connectedApps(accountId: string): Promise<ConnectedApp[]> {
    const rows = (await this.dataSource.query(
      `SELECT g."id", g."payload" AS "grant", c."payload" AS "client", o."payload" AS "organization"
       FROM "auth"."oauth_store" g
       LEFT JOIN "auth"."oauth_store" c ON c."model" = 'Client' AND c."id" = g."payload"->>'clientId'
       LEFT JOIN "auth"."oauth_store" o ON o."model" = $2 AND o."id" = g."id"
       WHERE g."model" = 'Grant' AND g."payload"->>'accountId' = $1 AND (g."expires_at" IS NULL OR g."expires_at" > now())
       ORDER BY (g."payload"->>'iat')::bigint DESC, g."id"`,
      [accountId, GRANT_ORGANIZATION_MODEL],
    )) as ConnectedAppRow[];
    return rows.map((row) => ({
      grantId: row.id,
      clientId: row.grant.clientId,
      clientName: row.client?.client_name ?? null,
      organizationId: row.organization?.organizationId ?? null,
      resources: Object.entries(row.grant.resources ?? {}).map(([resource, scope]) => ({ resource, scopes: scope.split(' ').filter(isScope) })),
      grantedAt: new Date((row.grant.iat ?? 0) * 1000),
    }));
  }

  /**
   * Revokes one of the user's grants (disconnecting the app): its codes and tokens go, and the
   * revocation is announced. False when the user has no such grant.
   */
  revokeForAccount(accountId: string, grantId: string): Promise<boolean> {
    return this.outbox.transaction(async (tx) => {
      const grants = new OAuthStoreAdapter('Grant', tx.manager);
      const grant = await grants.find(grantId);
      if (grant?.accountId !== accountId) return false;
      await grants.revokeByGrantId(grantId);
      await grants.destroy(grantId);
      await this.recordIn(tx, grantId);
      return true;
    });
  }

  /** Records a grant oidc-provider has revoked (refresh token reuse, /oauth/revoke) and announces it. */
  recordRevocation(grantId: string): Promise<void> {
    return this.outbox.transaction((tx) => this.recordIn(tx, grantId));
  }

  /** Grants revoked recently enough that some of their access tokens may be unexpired. */
  revokedGrantIds(): Promise<string[]> {
    return new OAuthStoreAdapter(REVOKED_GRANT_MODEL, this.dataSource).activeIds();
  }

  private async recordIn(tx: Tx, grantId: string): Promise<void> {
    await new OAuthStoreAdapter(REVOKED_GRANT_MODEL, tx.manager).upsert(grantId, { revokedAt: Date.now() }, REVOKED_GRANT_TTL_SECONDS);
    const organizationId = await this.organizationOf(grantId, tx.manager);
    // A grant without an organization never got past consent, so no token carries it.
    if (!organizationId) return;
    await new OAuthStoreAdapter(GRANT_ORGANIZATION_MODEL, tx.manager).destroy(grantId);
    await tx.emit('auth.oauth.grant_revoked', { grantId, organizationId, livemode: true }, { orgid: organizationId, livemode: true });
  }
}
