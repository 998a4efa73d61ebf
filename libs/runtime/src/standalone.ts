import { ConfigError, infrastructureSpec, listenSpec, loadConfig, publicUrlsSpec } from '#libs/config';
import type { AppDefinition } from './app-definition.js';
import { bootApp } from './boot.js';
import { servicesInfrastructure } from './services-infrastructure.js';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The entry point of one app as its own process (services mode, containers): boots on the
 * environment's Postgres, NATS and Redis, and shuts down cleanly on SIGTERM or SIGINT.
 */
export async function runStandalone(definition: AppDefinition): Promise<void> {
  try {
    loadConfig({ ...infrastructureSpec, ...publicUrlsSpec, ...listenSpec(definition.name), ...definition.config }, process.env);
    const infrastructure = await servicesInfrastructure(definition.name, process.env);
    const running = await bootApp(definition, infrastructure);
    let stopping: Promise<void> | undefined;
    const shutdown = (signal: string) => {
      stopping ??= (async () => {
        running.context.logger.info({ signal }, 'shutting down');
        setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
        await running.close();
        await infrastructure.close();
        process.exit(0);
      })();
    };
    process.once('SIGTERM', shutdown);
    process.once('SIGINT', shutdown);
  } catch (err) {
    const message = err instanceof ConfigError ? err.message : `${definition.name} failed to start: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}
