import { InProcessBus, type Bus } from '#libs/bus';
import { createLogger } from '#libs/observability';
import { createDataSource, createTestDatabase } from '#libs/persistence';
import { bootApp, type AppDefinition, type Infrastructure, type RunningApp } from '#libs/runtime';

export interface TestStack {
  infrastructure: Infrastructure;
  databaseUrl: string;
  bus: Bus;
  boot(definition: AppDefinition, env?: Record<string, string>): Promise<RunningApp>;
  close(): Promise<void>;
}

/**
 * A fresh Postgres database on this machine's server and an in-process bus, for integration
 * tests of one or more apps. Every app boots on a free port; close() stops them and drops the
 * database.
 */
export async function createTestStack(label: string, env: Record<string, string> = {}): Promise<TestStack> {
  const database = await createTestDatabase(label);
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const bus = new InProcessBus(logger);
  const running: RunningApp[] = [];
  const baseEnv = { ...process.env, ...env };
  const infrastructure: Infrastructure = {
    env: baseEnv,
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    bus,
    dataSource: (spec) => createDataSource({ ...spec, poolSize: 4 }, { url: database.url }),
    close: async () => bus.close(),
  };
  return {
    infrastructure,
    databaseUrl: database.url,
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
