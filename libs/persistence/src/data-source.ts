import 'reflect-metadata';
import { DataSource, type DataSourceOptions, MigrationExecutor } from 'typeorm';
import type { HealthIndicator } from '#libs/observability';
import { rowsOf } from './rows.js';

export interface DataSourceSpec {
  /** The app's own schema; no app reads another's. */
  schema: string;
  entities: NonNullable<DataSourceOptions['entities']>;
  migrations: NonNullable<DataSourceOptions['migrations']>;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** false for a schema without an outbox (an app that publishes no events); default true. */
  outbox?: boolean;
}

/** Where the database is: a Postgres URL, or extra driver options (the embedded PGlite adapter). */
export type DatabaseTarget = { url: string } | { driverOptions: Partial<DataSourceOptions> };

/**
 * The session settings every connection pins, whatever the server's or role's defaults: the
 * driver parses timestamps in ISO style, and JSON text Postgres writes (sql-json.ts) must write
 * numbers in their shortest exact form, as JavaScript does.
 */
export const SESSION_SETTINGS = { TimeZone: 'UTC', DateStyle: 'ISO, MDY', extra_float_digits: '1' } as const;

/** One DataSource per app, bound to its schema, with its own migrations table; never synchronize. */
export function createDataSource(spec: DataSourceSpec, target: DatabaseTarget): DataSource {
  const base = {
    type: 'postgres' as const,
    schema: spec.schema,
    entities: spec.entities,
    migrations: spec.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each' as const,
    synchronize: false,
    logging: false,
  };
  if ('url' in target) {
    return new DataSource({
      ...base,
      url: target.url,
      extra: {
        max: spec.poolSize ?? 10,
        application_name: spec.schema,
        options: Object.entries(SESSION_SETTINGS)
          .map(([name, value]) => `-c ${name}=${value.replaceAll(' ', '\\ ')}`)
          .join(' '),
      },
    });
  }
  return new DataSource({ ...base, ...target.driverOptions } as DataSourceOptions);
}

/**
 * Creates the schema and runs pending migrations under a Postgres advisory lock, so replicas
 * starting together migrate once. Lock and migrations share one connection (the embedded
 * database has only one). Returns the names of the migrations it applied.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const schema = (dataSource.options as { schema?: string }).schema;
  if (!schema) throw new Error('DataSource has no schema');
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await rowsOf(runner, 'SELECT pg_advisory_lock(hashtext($1))', [`migrate:${schema}`]);
    try {
      await rowsOf(runner, `CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      return (await executor.executePendingMigrations()).map((m) => m.name);
    } finally {
      await rowsOf(runner, 'SELECT pg_advisory_unlock(hashtext($1))', [`migrate:${schema}`]);
    }
  } finally {
    await runner.release();
  }
}

export function postgresHealth(dataSource: DataSource): HealthIndicator {
  return {
    name: 'postgres',
    check: async () => {
      await rowsOf(dataSource, 'SELECT 1');
    },
  };
}
