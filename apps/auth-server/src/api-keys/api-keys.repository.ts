import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { KeyMode } from '#libs/contracts';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import type { Scope } from '#libs/scopes';
import { AUTH_SCHEMA } from '../database.js';
import type { ApiKey } from './api-key.js';

const TABLE = `"${AUTH_SCHEMA}"."api_keys"`;
const COLUMNS = 'id, organization_id, user_id, name, mode, scopes, key_hash, prefix, created_at, revoked_at';

interface ApiKeyRow {
  id: string;
  organization_id: string;
  user_id: string;
  name: string | null;
  mode: KeyMode;
  scopes: Scope[] | null;
  key_hash: string;
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

function fromRow(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    userId: row.user_id,
    name: row.name,
    mode: row.mode,
    scopes: row.scopes,
    keyHash: row.key_hash,
    prefix: row.prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

@Injectable()
export class ApiKeysRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async insert(key: ApiKey): Promise<void> {
    await rowsOf(this.dataSource, `INSERT INTO ${TABLE} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, [
      key.id,
      key.organizationId,
      key.userId,
      key.name,
      key.mode,
      key.scopes,
      key.keyHash,
      key.prefix,
      key.createdAt,
      key.revokedAt,
    ]);
  }

  async findByHash(keyHash: string): Promise<ApiKey | undefined> {
    const [row] = await rowsOf<ApiKeyRow>(this.dataSource, `SELECT ${COLUMNS} FROM ${TABLE} WHERE key_hash = $1`, [keyHash]);
    return row && fromRow(row);
  }

  async findById(id: string): Promise<ApiKey | undefined> {
    const [row] = await rowsOf<ApiKeyRow>(this.dataSource, `SELECT ${COLUMNS} FROM ${TABLE} WHERE id = $1`, [id]);
    return row && fromRow(row);
  }

  /** The organization's keys, newest first. */
  async listByOrganization(organizationId: string): Promise<ApiKey[]> {
    const rows = await rowsOf<ApiKeyRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE organization_id = $1 ORDER BY created_at DESC, id`,
      [organizationId],
    );
    return rows.map(fromRow);
  }

  /** Reads and locks the key until the caller's transaction ends. */
  async lockById(db: EntityManager, id: string): Promise<ApiKey | undefined> {
    const [row] = await rowsOf<ApiKeyRow>(db, `SELECT ${COLUMNS} FROM ${TABLE} WHERE id = $1 FOR UPDATE`, [id]);
    return row && fromRow(row);
  }

  /** Marks a locked key revoked as of `revokedAt`. */
  async markRevoked(db: EntityManager, id: string, revokedAt: Date): Promise<ApiKey> {
    const [row] = await rowsOf<ApiKeyRow>(db, `UPDATE ${TABLE} SET revoked_at = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, revokedAt]);
    return fromRow(row!);
  }
}
