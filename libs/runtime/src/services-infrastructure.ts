import { NatsBus } from '#libs/bus';
import { type Env, env as envVar, infrastructureSpec, loadConfig, natsAuthOf, natsAuthSpec } from '#libs/config';
import { createLogger } from '#libs/observability';
import { createDataSource } from '#libs/persistence';
import type { Infrastructure } from './infrastructure.js';

export const LOCAL_SERVICES = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/signup_platform',
  NATS_URL: 'nats://127.0.0.1:4222',
  REDIS_URL: 'redis://127.0.0.1:6379',
} as const;

/** How a services-mode process shuts down on SIGTERM (see runStandalone). */
export const shutdownSpec = {
  /**
   * How long the app keeps serving after SIGTERM while /readyz answers 503, so that load balancers
   * and Kubernetes endpoints stop sending it work before it stops accepting any. 0 in tests.
   */
  shutdownDelayMs: envVar.int('SHUTDOWN_DELAY_MS', 5000, { min: 0, max: 15000 }),
} as const;

/** The stream name for a subject prefix: EVENTS, or EVENTS_<prefix> for an isolated run. */
export function streamNameFor(prefix: string): string {
  const suffix = prefix.replace(/[^A-Za-z0-9]/g, '_').replace(/_+$/, '');
  return suffix ? `EVENTS_${suffix}` : 'EVENTS';
}

/** Services mode: Postgres, NATS JetStream and Redis, each from its URL (localhost defaults). */
export async function servicesInfrastructure(name: string, env: Env): Promise<Infrastructure> {
  const withDefaults = { ...LOCAL_SERVICES, ...Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')) };
  const config = loadConfig(infrastructureSpec, withDefaults);
  const logger = createLogger(name, config.logLevel);
  const bus = await NatsBus.connect({
    url: config.natsUrl!,
    prefix: config.natsPrefix,
    streamName: streamNameFor(config.natsPrefix),
    name,
    logger,
    defaultTimeoutMs: config.busTimeoutMs,
    ...natsAuthOf(loadConfig(natsAuthSpec(name), withDefaults)),
  });
  return {
    env: withDefaults,
    logLevel: config.logLevel,
    bus,
    redisUrl: config.redisUrl,
    dataSource: (spec) => createDataSource(spec, { url: config.databaseUrl! }),
    close: () => bus.close(),
  };
}
