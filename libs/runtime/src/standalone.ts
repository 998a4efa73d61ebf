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
    const shutdown = async (signal: string) => {
      running.context.logger.info({ signal }, 'shutting down');
      const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
      force.unref();
      await running.close();
      await infrastructure.close();
      process.exit(0);
    };
    process.once('SIGTERM', (s) => void shutdown(s));
    process.once('SIGINT', (s) => void shutdown(s));
  } catch (err) {
    const message = err instanceof ConfigError ? err.message : `${definition.name} failed to start: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
}
