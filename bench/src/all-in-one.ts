import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { localStack, RELAXED_LIMITS_ENV } from '#libs/testing';
import { appMemory, type CpuMeter, cpuPerOperation } from './cpu.js';
import { clientAddress, type Measurement, runHttp } from './load.js';
import { Platform } from './platform.js';
import { publishedSignup, registration, REGISTRATION_SLOTS } from './seed.js';

/** The launcher `npm start` runs once its build is done. */
const LAUNCHER = 'dist/tools/launcher/src/all-in-one.js';
const ADMIN_TOKEN = `adm_bench_${Date.now()}`;
const START_TIMEOUT_MS = 120_000;

export interface AllInOneSettings {
  duration: number;
  rounds: number;
  connections: number;
  warmup: number;
  /** Rebuild without the Nx cache first, as a fresh clone's first `npm start` does. */
  build: boolean;
}

/** How long `npm start` takes to serve, in seconds. */
export interface StartTimes {
  /** `npm run build` with no Nx cache; absent when not measured. */
  buildSeconds?: number;
  /** A first start on an empty data folder (migrations, demo account) to the first 200 on /healthz. */
  firstStartSeconds: number;
  /** Build and first start: a newcomer's first minute. */
  coldSeconds?: number;
  /** A start on the data folder of an earlier run, built already: every later `npm start`. */
  warmSeconds: number;
  /** The warm start to the banner, when every app is up. */
  warmBannerSeconds: number;
}

export interface AllInOneRun {
  start: StartTimes;
  /** Each scenario's rounds, by id. */
  measured: Map<string, Measurement[]>;
  titles: Map<string, string>;
  /** The process's resident memory after each round, in MiB. */
  memory: Record<string, number>[];
}

interface Started {
  child: ChildProcess;
  /** Seconds to the first 200 on the gateway's /healthz. */
  healthySeconds: number;
  /** Seconds to the banner. */
  bannerSeconds: number;
  output: string;
}

/** Starts the launcher and times it: to the first 200 on /healthz, and to its banner. */
async function launch(env: Record<string, string>, healthz: string): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, [LAUNCHER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let bannerSeen = false;
  const banner = new Promise<number>((resolve, reject) => {
    // Kept up to the banner only: the request log that follows is drained and dropped, since
    // holding and searching it would cost this process (the load generator) CPU per request.
    const collect = (chunk: Buffer) => {
      if (bannerSeen) return;
      output += chunk.toString();
      if (!output.includes('Try it:')) return;
      bannerSeen = true;
      resolve(performance.now());
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
  banner.catch(() => undefined);
  let healthy: number | undefined;
  while (healthy === undefined) {
    if (performance.now() - started > START_TIMEOUT_MS) throw new Error(`npm start did not answer /healthz:\n${output}`);
    if (child.exitCode !== null) await banner;
    const ok = await fetch(healthz).then(
      async (res) => (await res.arrayBuffer(), res.status === 200),
      () => false,
    );
    if (ok) healthy = performance.now();
    else await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const bannerAt = await banner;
  return { child, healthySeconds: (healthy - started) / 1000, bannerSeconds: (bannerAt - started) / 1000, output };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * `npm start` measured (PGlite and the in-process bus, every app in one process): the build with
 * no cache and a first start on an empty data folder (cold), a start on that folder (warm), then
 * reads and registrations through its gateway with the sandbox key it prints, in interleaved
 * rounds, with the process's CPU per request and its resident memory after each round.
 */
export async function measureAllInOne(cpu: CpuMeter, settings: AllInOneSettings): Promise<AllInOneRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-aio-'));
  const stack = await localStack();
  const { DATABASE_URL: _db, NATS_URL: _nats, REDIS_URL: _redis, NODE_OPTIONS: _options, ...inherited } = process.env;
  const env: Record<string, string> = {
    ...(inherited as Record<string, string>),
    ...stack.env,
    ...RELAXED_LIMITS_ENV,
    TRUST_PROXY: 'true',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
  };
  const healthz = `${stack.origins['api-gateway']}/healthz`;
  let running: ChildProcess | undefined;
  try {
    let buildSeconds: number | undefined;
    if (settings.build) {
      const built = performance.now();
      await promisify(execFile)('npm', ['run', '--silent', 'build'], {
        env: { ...process.env, NX_SKIP_NX_CACHE: 'true', NX_DAEMON: 'false' },
        maxBuffer: 64 * 1024 * 1024,
      });
      buildSeconds = (performance.now() - built) / 1000;
    }
    const first = await launch(env, healthz);
    await stop(first.child);
    const warm = await launch(env, healthz);
    running = warm.child;
    const key = /Sandbox API key\s+(sgn_test_[0-9A-Za-z]{32})/.exec(warm.output)?.[1];
    if (!key) throw new Error(`npm start printed no sandbox key:\n${warm.output}`);

    const platform = new Platform({
      baseUrl: stack.env.PUBLIC_BASE_URL!,
      gatewayUrl: stack.origins['api-gateway'],
      authUrl: stack.env.AUTH_URL!,
      adminToken: ADMIN_TOKEN,
    });
    const read = await publishedSignup(platform, key, { title: 'All-in-one read', slots: 5, capacity: 10, items: 5 });
    const register = await publishedSignup(platform, key, {
      title: 'All-in-one registrations',
      slots: REGISTRATION_SLOTS,
      capacity: 100_000,
    });
    const apiPath = new URL(stack.env.PUBLIC_BASE_URL!).pathname;
    let slot = 0;
    const scenarios: { id: string; title: string; measure: (duration: number) => Promise<Measurement> }[] = [
      {
        id: 'aio-get-signup',
        title: 'npm start: GET /signups/{id} (API key)',
        measure: (duration) =>
          runHttp({
            url: `${stack.env.PUBLIC_BASE_URL}/signups/${read.id}`,
            connections: settings.connections,
            duration,
            headers: { authorization: `Bearer ${key}` },
            expectStatus: [200],
          }),
      },
      {
        id: 'aio-register',
        title: 'npm start: POST participants (anonymous, 200 slots)',
        measure: (duration) =>
          runHttp({
            url: stack.origins['api-gateway'],
            connections: settings.connections,
            duration,
            method: 'POST',
            request: () => ({
              path: `${apiPath}/signups/${register.id}/participants`,
              body: registration([{ type: 'slot', id: register.slotIds[slot++ % REGISTRATION_SLOTS]! }]),
            }),
            connectionHeaders: (n) => ({ 'x-forwarded-for': clientAddress(n) }),
            expectStatus: [201],
          }),
      },
    ];
    if (settings.warmup > 0) for (const scenario of scenarios) await scenario.measure(settings.warmup);
    const measured = new Map<string, Measurement[]>(scenarios.map((s) => [s.id, []]));
    const memory: Record<string, number>[] = [];
    for (let r = 1; r <= settings.rounds; r += 1) {
      for (const scenario of scenarios) {
        process.stderr.write(`all-in-one round ${r}/${settings.rounds}: ${scenario.id}\n`);
        const before = await cpu.snapshot();
        const measurement = await scenario.measure(settings.duration);
        measured.get(scenario.id)!.push({ ...measurement, cpuMs: cpuPerOperation(before, await cpu.snapshot(), measurement.requests) });
      }
      memory.push(appMemory(await cpu.snapshot()));
    }
    return {
      start: {
        ...(buildSeconds !== undefined && { buildSeconds, coldSeconds: buildSeconds + first.healthySeconds }),
        firstStartSeconds: first.healthySeconds,
        warmSeconds: warm.healthySeconds,
        warmBannerSeconds: warm.bannerSeconds,
      },
      measured,
      titles: new Map(scenarios.map((s) => [s.id, s.title])),
      memory,
    };
  } finally {
    if (running) await stop(running);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
