import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Tier } from '#libs/config';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { AUTH_SCHEMA } from '../database.js';
import type { Organization } from './organization.js';

const TABLE = `"${AUTH_SCHEMA}"."organizations"`;
const COLUMNS = 'id, name, slug, tier, created_at, updated_at';

interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  tier: Tier;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: OrganizationRow): Organization {
  return { id: row.id, name: row.name, slug: row.slug, tier: row.tier, createdAt: row.created_at, updatedAt: row.updated_at };
}

@Injectable()
export class OrganizationsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async findById(id: string): Promise<Organization | undefined> {
    const [row] = await rowsOf<OrganizationRow>(this.dataSource, `SELECT ${COLUMNS} FROM ${TABLE} WHERE id = $1`, [id]);
    return row && fromRow(row);
  }

  /** Reads and locks the row until the caller's transaction ends (serializes changes to one organization). */
  async lockById(db: EntityManager, id: string): Promise<Organization | undefined> {
    const [row] = await rowsOf<OrganizationRow>(db, `SELECT ${COLUMNS} FROM ${TABLE} WHERE id = $1 FOR UPDATE`, [id]);
    return row && fromRow(row);
  }

  /** Inserts a new organization, in the caller's transaction if given; undefined when its slug is already taken. */
  async insert(org: Organization, db: EntityManager = this.dataSource.manager): Promise<Organization | undefined> {
    const [row] = await rowsOf<OrganizationRow>(
      db,
      `INSERT INTO ${TABLE} (id, name, slug, tier, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (slug) DO NOTHING
       RETURNING ${COLUMNS}`,
      [org.id, org.name, org.slug, org.tier, org.createdAt, org.updatedAt],
    );
    return row && fromRow(row);
  }

  /** Sets the tier of a locked organization, changed as of `updatedAt`. */
  async updateTier(db: EntityManager, id: string, tier: Tier, updatedAt: Date): Promise<Organization> {
    const [row] = await rowsOf<OrganizationRow>(db, `UPDATE ${TABLE} SET tier = $2, updated_at = $3 WHERE id = $1 RETURNING ${COLUMNS}`, [
      id,
      tier,
      updatedAt,
    ]);
    return fromRow(row!);
  }
}
