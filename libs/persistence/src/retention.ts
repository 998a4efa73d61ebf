import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { MigrationSql } from './migrations.js';
import { affectedBy, rowsOf } from './rows.js';

/**
 * Rows of one table kept for a while and then deleted: those whose `after` column is older than
 * `retentionSeconds` (and that match `only`, when given). `after` must lead an index (partial,
 * with `only` as its predicate, when given), so a prune reads the old rows and nothing else.
 */
export interface PruneRule {
  /** The table, in the job's schema. */
  table: string;
  /** Its primary key columns: rows are deleted by key, a batch at a time. */
  key: readonly string[];
  /** The timestamp column the age is counted from (a NULL never expires). */
  after: string;
  retentionSeconds: number;
  /** Rows that must stay whatever their age are excluded here (e.g. `"status" <> 'pending'`). */
  only?: string;
}

export interface PruneOptions {
  /** Rows deleted per statement. */
  batchSize: number;
  /** How long a replica's hold on the job lasts without renewal (renewed after every batch). */
  leaseSeconds?: number;
  /** Checked between batches: true ends the run early (shutdown). */
  stopping?: () => boolean;
}

/** Rows deleted per table, or null when another replica holds the job. */
export type PruneResult = Record<string, number> | null;

const DEFAULT_LEASE_SECONDS = 300;

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The lease table: one row per job, naming the replica that runs it and until when. */
export function retentionLeaseSql(schema: string): MigrationSql {
  const table = `${quote(schema)}."retention_leases"`;
  return {
    up: [`CREATE TABLE ${table} ("job" text PRIMARY KEY, "holder" uuid NOT NULL, "until" timestamptz NOT NULL)`],
    down: [`DROP TABLE ${table}`],
  };
}

function deleteStatement(schema: string, rule: PruneRule): string {
  const table = `${quote(schema)}.${quote(rule.table)}`;
  const key = rule.key.map(quote).join(', ');
  const only = rule.only ? ` AND (${rule.only})` : '';
  return `DELETE FROM ${table} WHERE (${key}) IN (
    SELECT ${key} FROM ${table} WHERE ${quote(rule.after)} < now() - make_interval(secs => $1)${only} LIMIT $2)`;
}

/** Lets other work (other apps' queries on the embedded database's one connection) run between batches. */
function yieldToOthers(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Deletes old rows of a schema's tables in batches, each its own statement, until none is left.
 * Any replica may call it; only one runs at a time: the job is held by a lease row in
 * `<schema>.retention_leases` (taken only when free or expired, renewed after every batch,
 * released at the end), so a replica that dies holds it no longer than the lease. A lease row
 * rather than a session advisory lock: the embedded database has one shared connection, which
 * a lock held across batches would keep from every other app.
 */
export async function pruneOnce(
  dataSource: DataSource,
  schema: string,
  rules: readonly PruneRule[],
  options: PruneOptions,
): Promise<PruneResult> {
  const leases = `${quote(schema)}."retention_leases"`;
  const holder = randomUUID();
  const leaseSeconds = options.leaseSeconds ?? DEFAULT_LEASE_SECONDS;
  const taken = await rowsOf(
    dataSource,
    `INSERT INTO ${leases} AS l ("job", "holder", "until") VALUES ('retention', $1, now() + make_interval(secs => $2))
     ON CONFLICT ("job") DO UPDATE SET "holder" = EXCLUDED."holder", "until" = EXCLUDED."until" WHERE l."until" <= now()
     RETURNING "holder"`,
    [holder, leaseSeconds],
  );
  if (taken.length === 0) return null;
  const deleted: Record<string, number> = {};
  try {
    for (const rule of rules) {
      const statement = deleteStatement(schema, rule);
      deleted[rule.table] = 0;
      for (;;) {
        if (options.stopping?.()) return deleted;
        const count = await affectedBy(dataSource, statement, [rule.retentionSeconds, options.batchSize]);
        deleted[rule.table] += count;
        if (count < options.batchSize) break;
        const renewed = await affectedBy(
          dataSource,
          `UPDATE ${leases} SET "until" = now() + make_interval(secs => $2) WHERE "job" = 'retention' AND "holder" = $1`,
          [holder, leaseSeconds],
        );
        // The lease ran out and another replica took the job: it goes on from here.
        if (renewed === 0) return deleted;
        await yieldToOthers();
      }
    }
    return deleted;
  } finally {
    await rowsOf(dataSource, `DELETE FROM ${leases} WHERE "job" = 'retention' AND "holder" = $1`, [holder]);
  }
}
