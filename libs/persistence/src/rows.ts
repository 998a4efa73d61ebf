import { createHash } from 'node:crypto';
import type pg from 'pg';
import { QueryFailedError, QueryRunnerAlreadyReleasedError, type EntityManager } from 'typeorm';

/**
 * A statement Postgres parses once per connection and, after a few runs, stops planning too
 * (a named prepared statement, with Postgres's plan cache): for the hot statements, whose
 * parsing and planning cost Postgres as much CPU as running them. Its text must come from a
 * small fixed set: values go in parameters, never in the text, since each distinct text stays
 * prepared on every connection of the pool. Named by a digest of the text, so equal texts share one statement and
 * apps that share a connection (the embedded database) never clash.
 */
export interface Prepared {
  readonly name: string;
  readonly text: string;
}

export function prepared(text: string): Prepared {
  return { name: `p_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`, text };
}

/**
 * The rows a statement returned, whatever its kind (SELECT, or INSERT/UPDATE/DELETE … RETURNING:
 * a plain query answers those as [rows, count]). Inside a transaction pass tx.manager, so every
 * statement runs on the transaction's connection: a transaction that took a second pool
 * connection could wait for itself when the pool is busy. A failed statement throws
 * QueryFailedError, prepared or not.
 */
export async function rowsOf<T>(db: EntityManager, sql: string | Prepared, params: unknown[] = []): Promise<T[]> {
  const runner = db.queryRunner ?? db.connection.createQueryRunner();
  try {
    if (typeof sql === 'string') {
      const result = await runner.query(sql, params, true);
      return (result.records ?? []) as T[];
    }
    // A released runner still holds its last connection, which the pool may have lent since.
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    const client = (await runner.connect()) as pg.ClientBase;
    try {
      return (await client.query<T & pg.QueryResultRow>({ name: sql.name, text: sql.text, values: params })).rows;
    } catch (err) {
      throw new QueryFailedError(sql.text, params, err as Error);
    }
  } finally {
    if (runner !== db.queryRunner) await runner.release();
  }
}
