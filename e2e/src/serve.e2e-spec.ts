import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { APP_NAMES, type AppName } from '#libs/config';
import { freePorts } from '#libs/testing';
import { stackInfo } from './support/stack-env.js';

const ROOT = join(import.meta.dirname, '../..');
/** Nx computes its project graph, then the app boots. */
const READY_TIMEOUT_MS = 60_000;
const NX_ENV = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

interface Manifest {
  dependencies: Record<string, string>;
  imports: Record<string, { default: string }>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

interface Served {
  child: ChildProcess;
  origin: string;
  output: () => string;
  /**
   * SIGTERM to the group (npx and nx; Nx passes it on to the app, which runs in a session of its
   * own), then waits until all of them have exited: the app after its drain, then Nx.
   */
  stop: () => Promise<void>;
}

/**
 * `npx nx serve <app>` as its own process group, on the e2e stack's environment and a port of its
 * own. Without its build step: Nx rewrites a build's outputs in place even on a cache hit, and the
 * stack and the other e2e files start apps from dist/ meanwhile (the e2e run has built it).
 */
async function serve(app: AppName): Promise<Served> {
  const [port] = await freePorts(1);
  const child = spawn('npx', ['nx', 'serve', app, '--excludeTaskDependencies'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      ...stackInfo().env,
      [`${app.toUpperCase().replaceAll('-', '_')}_PORT`]: String(port),
      LOG_LEVEL: 'info',
      ...NX_ENV,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  let signalled = false;
  const stop = () => {
    if (!signalled && child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    signalled = true;
    return closed;
  };
  return { child, origin: `http://127.0.0.1:${port}`, output: () => output, stop };
}

function readyzStatus(origin: string): Promise<number | undefined> {
  return fetch(`${origin}/readyz`).then(
    (res) => res.status,
    () => undefined,
  );
}

async function waitUntilReady({ child, origin, output }: Served): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if ((await readyzStatus(origin)) === 200) return;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nx serve did not get ready:\n${output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The file a `#…` specifier names through package.json "imports" (the `default` condition Node uses). */
function resolveSubpathImport(specifier: string): string {
  for (const [pattern, target] of Object.entries(manifest.imports)) {
    const [prefix = ''] = pattern.split('*');
    if (specifier.startsWith(prefix)) return join(ROOT, target.default.replace('*', specifier.slice(prefix.length)));
  }
  throw new Error(`${specifier} is not in package.json "imports"`);
}

function packageName(specifier: string): string {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

/** Every file an entry point loads (through relative and `#` imports) and every package it imports. */
function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else if (specifier.startsWith('#')) visit(resolveSubpathImport(specifier));
      else if (!isBuiltin(specifier)) packages.add(packageName(specifier));
    }
  };
  visit(entry);
  return { files: [...files].map((file) => relative(ROOT, file)), packages: [...packages] };
}

/** What `npx nx <args> --json` prints. */
async function nxJson<T>(args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)('npx', ['nx', ...args, '--json'], { cwd: ROOT, env: { ...process.env, ...NX_ENV } });
  return JSON.parse(stdout) as T;
}

describe('npx nx serve <app>', () => {
  let served: Served | undefined;

  afterEach(async () => {
    await served?.stop();
  });

  it('is a target of every app that builds it first, then runs its entry point until stopped, uncached', async () => {
    expect((await nxJson<string[]>(['show', 'projects', '--with-target', 'serve'])).sort()).toEqual([...APP_NAMES].sort());
    const { targets } = await nxJson<{ targets: Record<string, unknown> }>(['show', 'project', 'mcp-server']);
    expect(targets.serve).toMatchObject({
      continuous: true,
      cache: false,
      dependsOn: ['build'],
      options: { command: 'node dist/apps/mcp-server/src/main.js' },
    });
  }, 30_000);

  it(
    'runs the mcp-server from its build until /readyz answers 200, and stops it on SIGTERM',
    async () => {
      served = await serve('mcp-server');
      await waitUntilReady(served);
      expect(await readyzStatus(served.origin)).toBe(200);
      await served.stop();
      expect(await readyzStatus(served.origin)).toBeUndefined();
      expect(served.output()).toContain('"msg":"shutting down"');
    },
    READY_TIMEOUT_MS + 30_000,
  );
});

describe('the build of each app (npx nx build <app>)', () => {
  it.each(APP_NAMES)(
    'gives %s an entry point loading only its own dist, the built libs, Node built-ins and production dependencies',
    (app) => {
      const entry = join(ROOT, 'dist/apps', app, 'src/main.js');
      expect(existsSync(entry)).toBe(true);
      const { files, packages } = importGraph(entry);
      expect(files.filter((file) => !file.startsWith(`dist/apps/${app}/`) && !file.startsWith('dist/libs/'))).toEqual([]);
      expect(packages.filter((name) => !(name in manifest.dependencies))).toEqual([]);
    },
  );
});
