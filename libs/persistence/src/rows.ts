import { createHash } from 'node:crypto';
import type pg from 'pg';
import { type DataSource, type EntityManager, QueryFailedError, type QueryRunner, QueryRunnerAlreadyReleasedError } from 'typeorm';

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
 * Where a statement runs. Inside a transaction pass its EntityManager (tx.manager) or QueryRunner,
 * so every statement runs on the transaction's connection: a transaction that took a second pool
 * connection could wait for itself when the pool is busy. Outside one, the DataSource (or its
 * manager) runs each statement on a pooled connection of its own.
 */
export type Db = DataSource | EntityManager | QueryRunner;

/**
 * The one way raw SQL runs: `answer` picks what the caller wants of the result, the rows or how
 * many rows the statement affected. A failed statement throws QueryFailedError, prepared or not.
 */
async function run<R>(
  db: Db,
  sql: string | Prepared,
  params: unknown[],
  answer: (rows: unknown[], affected: number | null | undefined) => R,
): Promise<R> {
  const own = 'createQueryRunner' in db ? undefined : 'isReleased' in db ? db : db.queryRunner;
  const runner = own ?? ('createQueryRunner' in db ? db : db.connection).createQueryRunner();
  try {
    if (typeof sql === 'string') {
      const result = await runner.query(sql, params, true);
      return answer(result.records ?? [], result.affected);
    }
    // A released runner still holds its last connection, which the pool may have lent since.
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    const client = (await runner.connect()) as pg.ClientBase;
    let result: pg.QueryResult;
    try {
      result = await client.query({ name: sql.name, text: sql.text, values: params });
    } catch (err) {
      throw new QueryFailedError(sql.text, params, err as Error);
    }
    return answer(result.rows, result.rowCount);
  } finally {
    if (runner !== own) await runner.release();
  }
}

const rows = (found: unknown[]) => found;
const affected = (_rows: unknown[], count: number | null | undefined) => count ?? 0;

/** The rows a statement returned, whatever its kind (SELECT, or INSERT/UPDATE/DELETE … RETURNING). */
export function rowsOf<T>(db: Db, sql: string | Prepared, params: unknown[] = []): Promise<T[]> {
  return run(db, sql, params, rows) as Promise<T[]>;
}

/** How many rows a statement inserted, updated or deleted: for a statement run for its effect, with no RETURNING. */
export function affectedBy(db: Db, sql: string | Prepared, params: unknown[] = []): Promise<number> {
  return run(db, sql, params, affected);
}
