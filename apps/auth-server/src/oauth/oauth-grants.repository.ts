import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { isScope, type Scope } from '#libs/scopes';
import { firstPartyName } from './first-party.js';

const GRANT_ORGANIZATIONS = '"auth"."oauth_grant_organizations"';
const REVOKED_GRANTS = '"auth"."oauth_revoked_grants"';

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
  organization_id: string | null;
}

/**
 * The auth-server's own records about OAuth grants, in tables of their own: the organization
 * chosen for each grant at consent, and the grants revoked lately. The grants and clients
 * themselves are oidc-provider's, in auth.oauth_store, and only read here.
 */
@Injectable()
export class OAuthGrantsRepository {
  async setOrganization(db: EntityManager, grantId: string, organizationId: string, lifetimeSeconds: number): Promise<void> {
    await rowsOf(
      db,
      `INSERT INTO ${GRANT_ORGANIZATIONS} ("grant_id", "organization_id", "expires_at") VALUES ($1, $2, now() + make_interval(secs => $3))
       ON CONFLICT ("grant_id") DO UPDATE SET "organization_id" = EXCLUDED."organization_id", "expires_at" = EXCLUDED."expires_at"`,
      [grantId, organizationId, lifetimeSeconds],
    );
  }

  async organizationOf(db: EntityManager, grantId: string): Promise<string | undefined> {
    const [row] = await rowsOf<{ organization_id: string }>(
      db,
      `SELECT "organization_id" FROM ${GRANT_ORGANIZATIONS} WHERE "grant_id" = $1 AND "expires_at" > now()`,
      [grantId],
    );
    return row?.organization_id;
  }

  async deleteOrganization(db: EntityManager, grantId: string): Promise<void> {
    await rowsOf(db, `DELETE FROM ${GRANT_ORGANIZATIONS} WHERE "grant_id" = $1`, [grantId]);
  }

  /** The account's unexpired grants with their client (a first-party client has no row: its name is ours) and organization, newest first. */
  async connectedApps(db: EntityManager, accountId: string): Promise<ConnectedApp[]> {
    const rows = await rowsOf<ConnectedAppRow>(
      db,
      `SELECT g."id", g."payload" AS "grant", c."payload" AS "client", o."organization_id"
       FROM "auth"."oauth_store" g
       LEFT JOIN "auth"."oauth_store" c ON c."model" = 'Client' AND c."id" = g."payload"->>'clientId'
       LEFT JOIN ${GRANT_ORGANIZATIONS} o ON o."grant_id" = g."id"
       WHERE g."model" = 'Grant' AND g."payload"->>'accountId' = $1 AND (g."expires_at" IS NULL OR g."expires_at" > now())
       ORDER BY (g."payload"->>'iat')::bigint DESC, g."id"`,
      [accountId],
    );
    return rows.map((row) => ({
      grantId: row.id,
      clientId: row.grant.clientId,
      clientName: row.client?.client_name ?? firstPartyName(row.grant.clientId) ?? null,
      organizationId: row.organization_id,
      resources: Object.entries(row.grant.resources ?? {}).map(([resource, scope]) => ({
        resource,
        scopes: scope.split(' ').filter(isScope),
      })),
      grantedAt: new Date((row.grant.iat ?? 0) * 1000),
    }));
  }

  /** Records a grant as revoked now, remembered for `lifetimeSeconds`. */
  async recordRevocation(db: EntityManager, grantId: string, lifetimeSeconds: number): Promise<void> {
    await rowsOf(
      db,
      `INSERT INTO ${REVOKED_GRANTS} ("grant_id", "revoked_at", "expires_at") VALUES ($1, now(), now() + make_interval(secs => $2))
       ON CONFLICT ("grant_id") DO UPDATE SET "revoked_at" = EXCLUDED."revoked_at", "expires_at" = EXCLUDED."expires_at"`,
      [grantId, lifetimeSeconds],
    );
  }

  async revokedGrantIds(db: EntityManager): Promise<string[]> {
    const rows = await rowsOf<{ grant_id: string }>(db, `SELECT "grant_id" FROM ${REVOKED_GRANTS} WHERE "expires_at" > now()`);
    return rows.map((row) => row.grant_id);
  }
}
