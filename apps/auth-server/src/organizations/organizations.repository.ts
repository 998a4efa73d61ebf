import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DATA_SOURCE, type Tx } from '#libs/runtime';
import { OrganizationEntity } from './organization.entity.js';

export const ORGANIZATION_SLUG_CONSTRAINT = 'organizations_slug_key';

@Injectable()
export class OrganizationsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  private manager(tx?: Tx): EntityManager {
    return tx?.manager ?? this.dataSource.manager;
  }

  findById(id: string, tx?: Tx): Promise<OrganizationEntity | null> {
    return this.manager(tx).findOneBy(OrganizationEntity, { id });
  }

  /** Reads and locks the row until the transaction ends (serializes changes to one organization). */
  lockById(id: string, tx: Tx): Promise<OrganizationEntity | null> {
    return tx.manager.findOne(OrganizationEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async insert(org: OrganizationEntity, tx?: Tx): Promise<void> {
    await this.manager(tx).insert(OrganizationEntity, org);
  }

  async updateTier(org: OrganizationEntity, tx: Tx): Promise<void> {
    await tx.manager.update(OrganizationEntity, { id: org.id }, { tier: org.tier, updatedAt: org.updatedAt });
  }
}
