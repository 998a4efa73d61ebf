import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { Tier } from '#libs/config';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { AUTH_SCHEMA } from '../database.js';
import type { Organization, OrganizationChanges } from './organization.js';

const TABLE = `"${AUTH_SCHEMA}"."organizations"`;
const COLUMNS = 'id, name, slug, tier, time_zone, created_at, updated_at';

interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  tier: Tier;
  time_zone: string;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: OrganizationRow): Organization {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    tier: row.tier,
    timeZone: row.time_zone,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
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
      `INSERT INTO ${TABLE} (id, name, slug, tier, time_zone, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (slug) DO NOTHING
       RETURNING ${COLUMNS}`,
      [org.id, org.name, org.slug, org.tier, org.timeZone, org.createdAt, org.updatedAt],
    );
    return row && fromRow(row);
  }

  /** Applies changes to a locked organization, changed as of `updatedAt`. */
  async update(db: EntityManager, id: string, changes: OrganizationChanges, updatedAt: Date): Promise<Organization> {
    const [row] = await rowsOf<OrganizationRow>(
      db,
      `UPDATE ${TABLE} SET tier = COALESCE($2, tier), time_zone = COALESCE($3, time_zone), updated_at = $4 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, changes.tier ?? null, changes.timeZone ?? null, updatedAt],
    );
    return fromRow(row!);
  }
}
