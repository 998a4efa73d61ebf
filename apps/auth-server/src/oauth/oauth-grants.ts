import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DATA_SOURCE, Outbox, type Tx } from '#libs/runtime';
import { GRANT_TTL_SECONDS, REVOKED_GRANT_TTL_SECONDS } from './lifetimes.js';
import { type ConnectedApp, OAuthGrantsRepository } from './oauth-grants.repository.js';
import { OAuthStoreAdapter } from './oauth-store.adapter.js';

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
    private readonly repository: OAuthGrantsRepository,
  ) {}

  async setOrganization(grantId: string, organizationId: string): Promise<void> {
    await this.repository.setOrganization(this.dataSource.manager, grantId, organizationId, GRANT_TTL_SECONDS);
  }

  async organizationOf(grantId: string | undefined, db: EntityManager = this.dataSource.manager): Promise<string | undefined> {
    return grantId ? this.repository.organizationOf(db, grantId) : undefined;
  }

  /** The user's connected apps, newest first. */
  connectedApps(accountId: string): Promise<ConnectedApp[]> {
    return this.repository.connectedApps(this.dataSource.manager, accountId);
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
    return this.repository.revokedGrantIds(this.dataSource.manager);
  }

  private async recordIn(tx: Tx, grantId: string): Promise<void> {
    await this.repository.recordRevocation(tx.manager, grantId, REVOKED_GRANT_TTL_SECONDS);
    const organizationId = await this.organizationOf(grantId, tx.manager);
    // A grant without an organization never got past consent, so no token carries it.
    if (!organizationId) return;
    await this.repository.deleteOrganization(tx.manager, grantId);
    await tx.emit('auth.oauth.grant_revoked', { grantId, organizationId, livemode: true }, { orgid: organizationId, livemode: true });
  }
}
