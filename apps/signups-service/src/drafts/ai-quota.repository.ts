import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { rowsOf } from '#libs/persistence';
import { DATA_SOURCE } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';

const TABLE = `"${SIGNUPS_SCHEMA}"."ai_draft_usage"`;
const THIS_MONTH = `date_trunc('month', now() AT TIME ZONE 'UTC')::date`;

/** The monthly AI draft quota of each organization, counted per UTC calendar month. */
@Injectable()
export class AiQuotaRepository {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async used(organizationId: string): Promise<number> {
    const [row] = await rowsOf<{ count: number }>(
      this.dataSource,
      `SELECT count FROM ${TABLE} WHERE organization_id = $1 AND month = ${THIS_MONTH}`,
      [organizationId],
    );
    return row?.count ?? 0;
  }

  /** Uses one draft of the month unless `quota` are used already; false then. Atomic under concurrency. */
  async consume(organizationId: string, quota: number): Promise<boolean> {
    const rows = await rowsOf(
      this.dataSource,
      `INSERT INTO ${TABLE} AS u (organization_id, month, count)
       SELECT $1, ${THIS_MONTH}, 1 WHERE $2::integer > 0
       ON CONFLICT (organization_id, month) DO UPDATE SET count = u.count + 1 WHERE u.count < $2::integer
       RETURNING count`,
      [organizationId, quota],
    );
    return rows.length > 0;
  }
}
