import { setTimeout as delay } from 'node:timers/promises';
import {
  ConfigError,
  httpTimeoutsSpec,
  infrastructureSpec,
  listenSpec,
  loadConfig,
  loadHttpTimeouts,
  publicUrlsSpec,
  tracingSpec,
} from '#libs/config';
import { startTracing } from '#libs/observability';
import type { AppDefinition } from './app-definition.js';
import { bootApp } from './boot.js';
import { retentionSpec } from './retention.js';
import { servicesInfrastructure, shutdownSpec } from './services-infrastructure.js';

/** After the drain delay, how long the app has to finish its work in flight and close before it exits with 1. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The entry point of one app as its own process (services mode, containers): boots on the
 * environment's Postgres, NATS and Redis, traces by the OTEL_* variables, and shuts down
 * cleanly on SIGTERM or SIGINT.
 */
export async function runStandalone(definition: AppDefinition): Promise<void> {
  try {
    const { shutdownDelayMs } = loadConfig(
      {
        ...infrastructureSpec,
        ...publicUrlsSpec,
        ...listenSpec(definition.name),
        ...httpTimeoutsSpec,
        ...shutdownSpec,
        ...(definition.database ? retentionSpec : {}),
        ...definition.config,
      },
      process.env,
    );
    loadHttpTimeouts(process.env);
    const tracing = startTracing(definition.name, loadConfig(tracingSpec, process.env));
    const infrastructure = await servicesInfrastructure(definition.name, process.env);
    const running = await bootApp(definition, infrastructure);
    let stopping: Promise<void> | undefined;
    const shutdown = (signal: NodeJS.Signals) => {
      stopping ??= (async () => {
        const { logger } = running.context;
        // SIGTERM comes from an orchestrator that also takes the app out of its load balancer: keep
        // serving while that happens. SIGINT is a person at a terminal: no delay.
        const delayMs = signal === 'SIGTERM' ? shutdownDelayMs : 0;
        running.beginShutdown();
        logger.info({ signal, delayMs }, 'shutting down');
        setTimeout(() => {
          logger.error({ graceMs: delayMs + SHUTDOWN_GRACE_MS }, 'shutdown did not finish in time; exiting');
          process.exit(1);
        }, delayMs + SHUTDOWN_GRACE_MS).unref();
        await delay(delayMs);
        await running.close();
        await infrastructure.close();
        await tracing.shutdown();
        process.exit(0);
      })().catch((err: unknown) => {
        running.context.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      });
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  } catch (err) {
    const message =
      err instanceof ConfigError ? err.message : `${definition.name} failed to start: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}
