import type { EntityManager } from 'typeorm';

/**
 * The rows a statement returned, whatever its kind (SELECT, or INSERT/UPDATE/DELETE … RETURNING:
 * a plain query answers those as [rows, count]). Inside a transaction pass tx.manager, so every
 * statement runs on the transaction's connection: a transaction that took a second pool
 * connection could wait for itself when the pool is busy.
 */
export async function rowsOf<T>(db: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  const runner = db.queryRunner ?? db.connection.createQueryRunner();
  try {
    const result = await runner.query(sql, params, true);
    return (result.records ?? []) as T[];
  } finally {
    if (runner !== db.queryRunner) await runner.release();
  }
}
