import { DataSource, QueryFailedError, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { affectedBy, prepared, rowsOf } from './rows.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

describe('rowsOf and affectedBy', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase('rows');
    dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
    await dataSource.query(`CREATE TABLE t (id int PRIMARY KEY, n int NOT NULL)`);
    await dataSource.query(`INSERT INTO t VALUES (1, 10), (2, 20)`);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await database.drop();
  });

  it('answers the rows of a SELECT', async () => {
    expect(await rowsOf(dataSource.manager, `SELECT id, n FROM t ORDER BY id`)).toEqual([
      { id: 1, n: 10 },
      { id: 2, n: 20 },
    ]);
  });

  it('answers the rows an UPDATE … RETURNING changed, outside a transaction too', async () => {
    expect(await rowsOf(dataSource.manager, `UPDATE t SET n = n + 1 WHERE id = $1 RETURNING id, n`, [1])).toEqual([{ id: 1, n: 11 }]);
    expect(await rowsOf(dataSource.manager, `UPDATE t SET n = n + 1 WHERE id = 99 RETURNING id`)).toEqual([]);
  });

  it("runs on the transaction's connection inside a transaction", async () => {
    await dataSource.transaction(async (manager) => {
      await manager.query(`UPDATE t SET n = 0 WHERE id = 2`);
      expect(await rowsOf(manager, `SELECT n FROM t WHERE id = 2`)).toEqual([{ n: 0 }]);
    });
  });

  it('runs on a pooled connection, given back after the statement, given the DataSource itself', async () => {
    expect(await rowsOf(dataSource, `SELECT id FROM t WHERE id = $1`, [1])).toEqual([{ id: 1 }]);
    expect(await rowsOf(dataSource, prepared(`SELECT id FROM t WHERE id = $1`), [2])).toEqual([{ id: 2 }]);
    // Each statement's connection went back to the pool.
    const pool = (dataSource.driver as unknown as { master: { totalCount: number; idleCount: number } }).master;
    expect(pool.idleCount).toBe(pool.totalCount);
  });

  it("runs on a transaction's QueryRunner, seeing what the transaction wrote", async () => {
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      await rowsOf(runner, `UPDATE t SET n = -1 WHERE id = 1`);
      expect(await rowsOf(runner, `SELECT n FROM t WHERE id = 1`)).toEqual([{ n: -1 }]);
      expect(await rowsOf(runner, prepared(`SELECT n FROM t WHERE id = $1`), [1])).toEqual([{ n: -1 }]);
      expect(await rowsOf(dataSource, `SELECT n FROM t WHERE id = 1`)).not.toEqual([{ n: -1 }]);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    await expect(rowsOf(runner, `SELECT 1`)).rejects.toBeInstanceOf(QueryRunnerAlreadyReleasedError);
  });

  it('answers how many rows a statement without RETURNING affected, over each kind of db', async () => {
    expect(await affectedBy(dataSource, `UPDATE t SET n = n WHERE id = ANY($1::int[])`, [[1, 2, 99]])).toBe(2);
    expect(await affectedBy(dataSource.manager, prepared(`UPDATE t SET n = n WHERE id = $1`), [99])).toBe(0);
    await dataSource
      .transaction(async (manager) => {
        expect(await affectedBy(manager, `DELETE FROM t WHERE id = 1`)).toBe(1);
        expect(await affectedBy(manager.queryRunner!, prepared(`DELETE FROM t WHERE id = $1`), [2])).toBe(1);
        expect(await rowsOf(manager, `SELECT id FROM t`)).toEqual([]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await rowsOf(dataSource, `SELECT id FROM t ORDER BY id`)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  describe('a prepared statement', () => {
    const byId = prepared(`SELECT id, n FROM t WHERE id = $1`);
    const preparedHere = `SELECT name, statement FROM pg_prepared_statements`;

    it('is named by its text: equal texts share a name, different texts do not', () => {
      expect(prepared(`SELECT id, n FROM t WHERE id = $1`)).toEqual(byId);
      expect(prepared(`SELECT n FROM t WHERE id = $1`).name).not.toBe(byId.name);
      expect(byId.name).toMatch(/^p_[0-9a-f]{32}$/);
    });

    it('answers the rows, and stays prepared on its connection for the next runs', async () => {
      await dataSource.transaction(async (manager) => {
        expect(await rowsOf(manager, byId, [1])).toEqual([{ id: 1, n: expect.any(Number) }]);
        expect(await rowsOf(manager, byId, [2])).toEqual([{ id: 2, n: expect.any(Number) }]);
        const statements = await rowsOf<{ name: string; statement: string }>(manager, preparedHere);
        expect(statements.filter((s) => s.name === byId.name)).toEqual([{ name: byId.name, statement: byId.text }]);
      });
    });

    it("runs on the transaction's connection, outside a transaction on a pooled one", async () => {
      await dataSource.transaction(async (manager) => {
        await manager.query(`UPDATE t SET n = 0 WHERE id = 2`);
        expect(await rowsOf(manager, byId, [2])).toEqual([{ id: 2, n: 0 }]);
      });
      expect(await rowsOf(dataSource.manager, prepared(`UPDATE t SET n = n + 1 WHERE id = $1 RETURNING n`), [2])).toEqual([{ n: 1 }]);
    });

    it('refuses a released runner, whose connection the pool may have lent to another', async () => {
      const runner = dataSource.createQueryRunner();
      await rowsOf(runner.manager, byId, [1]);
      await runner.release();
      await expect(rowsOf(runner.manager, byId, [1])).rejects.toBeInstanceOf(QueryRunnerAlreadyReleasedError);
    });

    it('fails as any statement does, with QueryFailedError and the driver error', async () => {
      const insert = prepared(`INSERT INTO t (id, n) VALUES ($1, $2)`);
      const failure = rowsOf(dataSource.manager, insert, [1, 1]);
      await expect(failure).rejects.toBeInstanceOf(QueryFailedError);
      await expect(failure).rejects.toMatchObject({ query: insert.text, driverError: { code: '23505' } });
    });
  });
});
