import { resolve } from 'node:path';
import { loadConfig, publicUrlsSpec, tracingSpec } from '#libs/config';
import { startTracing, type Tracing } from '#libs/observability';
import { allInOneInfrastructure, bootApp, type RunningApp } from '#libs/runtime';
import { APPS } from './apps.js';
import { banner, mailboxUrl } from './banner.js';
import { portOf, withLocalUrls } from './local-env.js';
import { withLocalSecrets } from './local-secrets.js';
import { ensureDemoAccount } from './seed.js';

/** `npm start`: every app in this one process, on embedded adapters unless URLs say otherwise. */
async function main(): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR ?? 'data');
  const env = withLocalSecrets(withLocalUrls(process.env), dataDir);
  const infrastructure = await allInOneInfrastructure(env, dataDir);
  const running: RunningApp[] = [];
  let tracing: Tracing | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (code: number) => {
    stopping ??= (async () => {
      for (const app of [...running].reverse()) await app.close();
      await infrastructure.close();
      await tracing?.shutdown();
      process.exit(code);
    })();
    return stopping;
  };
  try {
    tracing = startTracing('signup-platform', loadConfig(tracingSpec, env));
    for (const app of APPS) running.push(await bootApp(app, infrastructure));
    const demo = await ensureDemoAccount(`http://127.0.0.1:${portOf('auth-server', env)}`, env.ADMIN_TOKEN, dataDir);
    const surfaces = loadConfig(publicUrlsSpec, env);
    process.stdout.write(banner('all-in-one', surfaces, env.ADMIN_TOKEN, demo, mailboxUrl(env, surfaces.publicBaseUrl)));
  } catch (err) {
    process.stderr.write(`npm start failed: ${err instanceof Error ? err.message : String(err)}\n`);
    await stop(1);
  }
  process.once('SIGINT', () => void stop(0));
  process.once('SIGTERM', () => void stop(0));
}

await main();
