import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '#libs/persistence';
import { streamNameFor } from '#libs/runtime';
import { RELAXED_LIMITS_ENV, localStack, startFakeCollector, type FakeCollector } from '#libs/testing';
import type { StackInfo } from './stack-env.js';

export interface RunningStack {
  child: ChildProcess;
  collector: FakeCollector;
  database: TestDatabase;
  info: StackInfo;
  log: WriteStream;
  workDir: string;
}

declare global {
  var e2eStack: RunningStack | undefined;
}

const START_TIMEOUT_MS = 90_000;

/**
 * Starts the whole platform in services mode (one process per app) for the e2e files, exporting
 * its traces to a collector of its own, with limits no test reaches (limits.e2e-spec.ts runs
 * gateways of its own at the default limits).
 * Jest loads this file through require() without its module mapper: only package imports
 * (`#libs/*` resolve to the built libs) and type-only relative imports work here.
 */
export default async function globalSetup(): Promise<void> {
  const database = await createTestDatabase('e2e');
  const natsPrefix = `e2e${randomBytes(4).toString('hex')}.`;
  const { origins, env: stackEnv } = await localStack();
  const workDir = mkdtempSync(join(tmpdir(), 'signup-e2e-'));
  const collector = await startFakeCollector();
  const env: Record<string, string> = {
    ...stackEnv,
    ...RELAXED_LIMITS_ENV,
    RATE_LIMIT_PREFIX: `e2e-ratelimit-${randomBytes(4).toString('hex')}`,
    DATABASE_URL: database.url,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    NATS_PREFIX: natsPrefix,
    ADMIN_TOKEN: `adm_${randomBytes(24).toString('base64url')}`,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    TWILIO_AUTH_TOKEN: randomBytes(16).toString('hex'),
    REMINDER_POLL_MS: '250',
    SHUTDOWN_DELAY_MS: '0',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'info',
    DATA_DIR: workDir,
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  const logFile = join(workDir, 'stack.log');
  mkdirSync(workDir, { recursive: true });
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ['dist/tools/launcher/src/services.js'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.pipe(log);
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stack did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      if (chunk.toString().includes('Signup platform is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the stack exited with code ${code} while starting`));
    });
  });
  try {
    await ready;
  } catch (err) {
    child.kill('SIGTERM');
    await database.drop();
    await collector.close();
    const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
    throw new Error(`${(err as Error).message}\n--- stack log (${logFile}) ---\n${tail}`);
  }
  const info: StackInfo = {
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
    collectorUrl: collector.url,
    env,
  };
  process.env.E2E_STACK = JSON.stringify(info);
  globalThis.e2eStack = { child, collector, database, info, log, workDir };
}
