import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { type Bus, InProcessBus, NatsBus } from '#libs/bus';
import { createLogger } from '#libs/observability';
import { createDataSource, createTestDatabase, type DatabaseTarget, type DataSourceSpec, openEmbeddedDatabase } from '#libs/persistence';
import { type AppDefinition, bootApp, type Infrastructure, type RunningApp, streamNameFor } from '#libs/runtime';

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

export interface TestStackOptions {
  env?: Record<string, string>;
  /**
   * 'in-process' (default): one in-process bus. 'nats': this machine's NATS with a subject
   * prefix and stream of the stack's own, one connection per booted app as separate processes
   * would have (so one app can boot twice, as two replicas sharing its subjects).
   */
  transport?: 'in-process' | 'nats';
}

/**
 * A fresh database and a bus for integration tests of one or more apps. Every app boots on a
 * free port; close() stops them, drops the database and deletes the stream.
 */
export async function createTestStack(label: string, options: TestStackOptions = {}): Promise<TestStack> {
  const database = await testDatabase(label);
  const logLevel = process.env.TEST_LOG_LEVEL ?? 'silent';
  const logger = createLogger('test', logLevel);
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const prefix = `t${randomBytes(4).toString('hex')}.`;
  const connectNats = (name: string) =>
    NatsBus.connect({ url: natsUrl, prefix, streamName: streamNameFor(prefix), name, logger, defaultTimeoutMs: 5000 });
  const nats = options.transport === 'nats';
  const bus: Bus = nats ? await connectNats('test-client') : new InProcessBus(logger);
  const buses: Bus[] = [bus];
  const running: RunningApp[] = [];
  const baseEnv = { EMAIL_SECRET_KEY: randomBytes(32).toString('base64'), ...process.env, ...options.env };
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
      const appBus = nats ? await connectNats(definition.name) : bus;
      if (appBus !== bus) buses.push(appBus);
      const app = await bootApp(definition, { ...infrastructure, bus: appBus, env: { ...baseEnv, [portVar]: '0', ...appEnv } });
      running.push(app);
      return app;
    },
    async close() {
      for (const app of running.reverse()) await app.close();
      for (const b of buses) await b.close();
      if (nats) await deleteStream(natsUrl, streamNameFor(prefix));
      await database.drop();
    },
  };
}

async function deleteStream(url: string, streamName: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    await (await jetstreamManager(nc)).streams.delete(streamName);
  } finally {
    await nc.close();
  }
}
