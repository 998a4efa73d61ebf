import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type AppName, DEFAULT_PORTS, loadConfig, publicUrlsSpec } from '#libs/config';
import { LOCAL_SERVICES } from '#libs/runtime';
import { banner, mailboxUrl } from './banner.js';
import { portOf, withLocalUrls } from './local-env.js';
import { withLocalSecrets } from './local-secrets.js';
import { waitForOk } from './wait.js';

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const READY_TIMEOUT_MS = 60_000;

/** Creates the configured database when the server has no database of that name yet. */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

/** Services mode: each app in its own process against Postgres, NATS JetStream and Redis. */
async function main(): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR ?? 'data');
  const env = withLocalSecrets(withLocalUrls({ ...LOCAL_SERVICES, ...process.env }), dataDir);
  await ensureDatabase(env.DATABASE_URL!);

  const apps = Object.keys(DEFAULT_PORTS) as AppName[];
  const children = new Map<AppName, ChildProcess>();
  let exitCode: number | undefined;
  const stopAll = (code: number) => {
    exitCode ??= code;
    for (const child of children.values()) child.kill('SIGTERM');
    if (children.size === 0) process.exit(exitCode);
  };
  for (const app of apps) {
    const child = spawn(process.execPath, [join(DIST, 'apps', app, 'src', 'main.js')], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => {
      children.delete(app);
      if (exitCode === undefined) {
        process.stderr.write(`${app} exited with code ${code}; stopping the others\n`);
        stopAll(1);
      } else if (children.size === 0) process.exit(exitCode);
    });
    children.set(app, child);
  }
  process.once('SIGINT', () => stopAll(0));
  process.once('SIGTERM', () => stopAll(0));

  try {
    await Promise.all(
      apps.map((app) => waitForOk(`http://127.0.0.1:${portOf(app, env)}/readyz`, READY_TIMEOUT_MS, () => children.has(app))),
    );
  } catch (err) {
    stopAll(1);
    throw err;
  }
  const surfaces = loadConfig(publicUrlsSpec, env);
  process.stdout.write(banner('services mode', surfaces, env.ADMIN_TOKEN, undefined, mailboxUrl(env, surfaces.publicBaseUrl)));
}

main().catch((err: unknown) => {
  process.stderr.write(`start:services failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
