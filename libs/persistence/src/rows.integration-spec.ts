import { DataSource } from 'typeorm';
import { rowsOf } from './rows.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

describe('rowsOf', () => {
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
    expect(await rowsOf(dataSource.manager, `SELECT id, n FROM t ORDER BY id`)).toEqual([{ id: 1, n: 10 }, { id: 2, n: 20 }]);
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
});
