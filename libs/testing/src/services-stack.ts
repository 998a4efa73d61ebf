import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { createTestDatabase } from '#libs/persistence';
import { streamNameFor } from '#libs/runtime';
import { localStack } from './ports.js';

/** What a test or benchmark needs to know about a running stack. */
export interface ServicesStackInfo {
  gatewayUrl: string;
  baseUrl: string;
  authUrl: string;
  mcpUrl: string;
  problemBase: string;
  internalUrls: Record<string, string>;
  adminToken: string;
  natsUrl: string;
  natsPrefix: string;
  streamName: string;
  databaseUrl: string;
  env: Record<string, string>;
}

export interface ServicesStack {
  info: ServicesStackInfo;
  child: ChildProcess;
  /** The apps' output, written straight to a file in the stack's work folder (removed by stop()). */
  logFile: string;
  /** Stops the apps, then deletes the stream, the rate limit counters, the database and the work folder. */
  stop(): Promise<void>;
}

export interface ServicesStackOptions {
  /** Names the database, the NATS prefix and the work folder. */
  label: string;
  /** Settings over the stack's own (ports, URLs, secrets, a prefix of its own for everything shared). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
}

const STOP_TIMEOUT_MS = 15_000;

/**
 * The whole platform in services mode (one process per app, from dist/), on this machine's
 * Postgres, NATS and Redis with a database, subject prefix, stream and rate-limit prefix of its
 * own, once every app is ready.
 */
export async function startServicesStack(options: ServicesStackOptions): Promise<ServicesStack> {
  const database = await createTestDatabase(options.label);
  const natsPrefix = options.env?.NATS_PREFIX ?? `${options.label}${randomBytes(4).toString('hex')}.`;
  const { origins, env: stackEnv } = await localStack();
  const workDir = mkdtempSync(join(tmpdir(), `signup-${options.label}-`));
  const env: Record<string, string> = {
    ...stackEnv,
    RATE_LIMIT_PREFIX: `${options.label}-ratelimit-${randomBytes(4).toString('hex')}`,
    // Sign-in failures count per address (127.0.0.1 here) in Redis: a run's own, or one run's hostile sign-ins lock out another's.
    LOGIN_RATE_LIMIT_PREFIX: `${options.label}-login-${randomBytes(4).toString('hex')}`,
    DATABASE_URL: database.url,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    NATS_PREFIX: natsPrefix,
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    EMAIL_SECRET_KEY: randomBytes(32).toString('base64'),
    CONFIRMATION_TOKEN_KEY: randomBytes(32).toString('base64'),
    TWILIO_AUTH_TOKEN: randomBytes(16).toString('hex'),
    SHUTDOWN_DELAY_MS: '0',
    // The suites register their OAuth clients from 127.0.0.1: the per-IP limit is tested on its own.
    OAUTH_REGISTRATIONS_PER_HOUR: '100000',
    DATA_DIR: workDir,
    ...options.env,
  };
  const logFile = join(workDir, 'stack.log');
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['dist/tools/launcher/src/services.js'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const info: ServicesStackInfo = {
    gatewayUrl: origins['api-gateway'],
    baseUrl: env.PUBLIC_BASE_URL!,
    authUrl: env.AUTH_URL!,
    mcpUrl: env.MCP_URL!,
    problemBase: env.PROBLEM_BASE!,
    internalUrls: origins,
    adminToken: env.ADMIN_TOKEN!,
    natsUrl: env.NATS_URL!,
    natsPrefix,
    streamName: streamNameFor(natsPrefix),
    databaseUrl: database.url,
    env,
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS)))]);
    // The wait is over: a timer left running would keep the test process alive for the rest of it.
    clearTimeout(timer);
    await deleteStream(info.natsUrl, info.streamName);
    await deleteKeys(env.REDIS_URL!, `${env.RATE_LIMIT_PREFIX}:*`);
    await deleteKeys(env.REDIS_URL!, `${env.LOGIN_RATE_LIMIT_PREFIX}:*`);
    await database.drop();
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    await allReady(Object.values(origins), child, options.startTimeoutMs ?? 90_000);
  } catch (err) {
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
    await stop();
    throw new Error(`${(err as Error).message}\n--- stack log ---\n${tail}`);
  }
  return { info, child, logFile, stop };
}

/** Waits until every app's /readyz answers 200; fails when the stack exits or the time is up. */
async function allReady(origins: string[], child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(origins);
  while (pending.size > 0) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the stack exited (${child.exitCode ?? child.signalCode}) while starting`);
    if (Date.now() > deadline) throw new Error(`the stack did not start within ${timeoutMs} ms`);
    for (const origin of pending) {
      if (
        await fetch(`${origin}/readyz`).then(
          (res) => res.ok,
          () => false,
        )
      )
        pending.delete(origin);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function deleteStream(natsUrl: string, name: string): Promise<void> {
  // A NATS of the test's own that requires credentials goes away with its test instead.
  const nc = await connect({ servers: natsUrl }).catch(() => undefined);
  if (!nc) return;
  try {
    await (await jetstreamManager(nc)).streams.delete(name);
  } catch {
    // the stream may never have been created if the stack failed early
  } finally {
    await nc.close();
  }
}

async function deleteKeys(redisUrl: string, pattern: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    await redis.quit();
  }
}
