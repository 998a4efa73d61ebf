import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DATA_SOURCE, type Tx } from '#libs/runtime';
import { ApiKeyEntity } from './api-key.entity.js';

@Injectable()
export class ApiKeysRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  private manager(tx?: Tx): EntityManager {
    return tx?.manager ?? this.dataSource.manager;
  }

  async insert(key: ApiKeyEntity): Promise<void> {
    await this.manager().insert(ApiKeyEntity, key);
  }

  findByHash(keyHash: string): Promise<ApiKeyEntity | null> {
    return this.manager().findOneBy(ApiKeyEntity, { keyHash });
  }

  findById(id: string): Promise<ApiKeyEntity | null> {
    return this.manager().findOneBy(ApiKeyEntity, { id });
  }

  /** The organization's keys, newest first. */
  listByOrganization(organizationId: string): Promise<ApiKeyEntity[]> {
    return this.manager().find(ApiKeyEntity, { where: { organizationId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  lockById(id: string, tx: Tx): Promise<ApiKeyEntity | null> {
    return tx.manager.findOne(ApiKeyEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async markRevoked(key: ApiKeyEntity, tx: Tx): Promise<void> {
    await tx.manager.update(ApiKeyEntity, { id: key.id }, { revokedAt: key.revokedAt });
  }
}
