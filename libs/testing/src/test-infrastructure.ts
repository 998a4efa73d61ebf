import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InProcessBus, type Bus } from '#libs/bus';
import { createLogger } from '#libs/observability';
import { createDataSource, createTestDatabase, openEmbeddedDatabase, type DataSourceSpec, type DatabaseTarget } from '#libs/persistence';
import { bootApp, type AppDefinition, type Infrastructure, type RunningApp } from '#libs/runtime';

export interface TestStack {
  infrastructure: Infrastructure;
  bus: Bus;
  boot(definition: AppDefinition, env?: Record<string, string>): Promise<RunningApp>;
  close(): Promise<void>;
}

interface TestDatabaseHandle {
  target(spec: DataSourceSpec): DatabaseTarget;
  drop(): Promise<void>;
}

/**
 * A fresh database on this machine's Postgres; outside CI, when Postgres is not reachable,
 * an embedded one in a temporary folder instead (CI=true fails loudly instead).
 */
async function testDatabase(label: string): Promise<TestDatabaseHandle> {
  try {
    const database = await createTestDatabase(label);
    return { target: () => ({ url: database.url }), drop: () => database.drop() };
  } catch (err) {
    if (process.env.CI === 'true') throw new Error(`PostgreSQL is not reachable: ${(err as Error).message}`);
    const dir = mkdtempSync(join(tmpdir(), `${label}-`));
    const embedded = await openEmbeddedDatabase(dir);
    return {
      target: (spec) => embedded.target(spec),
      drop: async () => {
        await embedded.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
}

/**
 * A fresh database and an in-process bus for integration tests of one or more apps. Every app
 * boots on a free port; close() stops them and drops the database.
 */
export async function createTestStack(label: string, env: Record<string, string> = {}): Promise<TestStack> {
  const database = await testDatabase(label);
  const logLevel = process.env.TEST_LOG_LEVEL ?? 'silent';
  const bus = new InProcessBus(createLogger('test', logLevel));
  const running: RunningApp[] = [];
  const baseEnv = { ...process.env, ...env };
  const infrastructure: Infrastructure = {
    env: baseEnv,
    logLevel,
    bus,
    dataSource: (spec) => createDataSource({ ...spec, poolSize: 4 }, database.target(spec)),
    close: () => bus.close(),
  };
  return {
    infrastructure,
    bus,
    async boot(definition, appEnv = {}) {
      const portVar = `${definition.name.toUpperCase().replaceAll('-', '_')}_PORT`;
      const app = await bootApp(definition, { ...infrastructure, env: { ...baseEnv, [portVar]: '0', ...appEnv } });
      running.push(app);
      return app;
    },
    async close() {
      for (const app of running.reverse()) await app.close();
      await bus.close();
      await database.drop();
    },
  };
}
