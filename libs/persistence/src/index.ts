export { createDataSource, migrate, postgresHealth, type DataSourceSpec, type DatabaseTarget } from './data-source.js';
export { createTestDatabase, testServerUrl, type TestDatabase } from './test-database.js';
export { openEmbeddedDatabase, type EmbeddedDatabase } from './embedded-database.js';
export { affectedBy, prepared, rowsOf, type Db, type Prepared } from './rows.js';
export { Batches, reserveInTurn, type BatchesOptions, type InTurn, type ReservationOptions } from './batches.js';
export { UUID_V7_SQL } from './uuid-v7.js';
export { sqlMigration, type MigrationSql } from './migrations.js';
export { pruneOnce, retentionLeaseSql, type PruneOptions, type PruneResult, type PruneRule } from './retention.js';
export { jsonSql, type JsonSql } from './sql-json.js';
