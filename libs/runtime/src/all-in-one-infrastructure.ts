import { type Bus, InProcessBus, NatsBus } from '#libs/bus';
import { type Env, infrastructureSpec, loadConfig, natsAuthOf, natsAuthSpec } from '#libs/config';
import { createLogger } from '#libs/observability';
import { createDataSource, type DatabaseTarget, type DataSourceSpec, openEmbeddedDatabase } from '#libs/persistence';
import type { Infrastructure } from './infrastructure.js';
import { streamNameFor } from './services-infrastructure.js';

/**
 * All-in-one mode: one set of adapters shared by every app in the process. Each is embedded
 * unless its URL is set: PGlite in <dataDir>/pg without DATABASE_URL, the in-process bus
 * without NATS_URL, in-memory limits without REDIS_URL.
 */
export async function allInOneInfrastructure(env: Env, dataDir: string): Promise<Infrastructure> {
  const config = loadConfig(infrastructureSpec, env);
  const logger = createLogger('all-in-one', config.logLevel);
  const bus: Bus = config.natsUrl
    ? await NatsBus.connect({
        url: config.natsUrl,
        prefix: config.natsPrefix,
        streamName: streamNameFor(config.natsPrefix),
        name: 'all-in-one',
        logger,
        defaultTimeoutMs: config.busTimeoutMs,
        ...natsAuthOf(loadConfig(natsAuthSpec('all-in-one'), env)),
      })
    : new InProcessBus(logger, config.busTimeoutMs);
  const embedded = config.databaseUrl ? undefined : await openEmbeddedDatabase(dataDir);
  const target = (spec: DataSourceSpec): DatabaseTarget => (embedded ? embedded.target(spec) : { url: config.databaseUrl! });
  return {
    env,
    logLevel: config.logLevel,
    bus,
    redisUrl: config.redisUrl,
    dataSource: (spec) => createDataSource(spec, target(spec)),
    async close() {
      await bus.close();
      await embedded?.close();
    },
  };
}
