import { spawn } from 'node:child_process';
import type { AppName } from '#libs/config';
import { freePorts } from '#libs/testing';
import { type ApiResponse, type CallOptions, request } from './api.js';
import { stackInfo } from './stack-env.js';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AppProcess {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Stops it with SIGTERM (or SIGKILL: no shutdown at all) and waits for the exit. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<ProcessExit>;
  /** Sends a signal without waiting (see `exited`). */
  signal(signal: 'SIGTERM' | 'SIGINT' | 'SIGKILL'): void;
  /** Settles when the process has exited, however it came to. */
  exited: Promise<ProcessExit>;
  /** The end of what it wrote, stdout and stderr: its logs at LOG_LEVEL (error by default) and any crash. */
  output(): string;
}

export interface ExtraGateway extends AppProcess {
  /** {base_url} of this replica. */
  baseUrl: string;
  call<T = Record<string, unknown>>(path: string, options?: CallOptions): Promise<ApiResponse<T>>;
}

const READY_TIMEOUT_MS = 30_000;
/** The tail of a process's output kept for diagnostics. */
const OUTPUT_KEPT_CHARS = 200_000;

/**
 * One app as its own process from its build, on the environment given (`env` overrides the
 * process's own; an empty value unsets a variable), once its /readyz answers 200. It stops at
 * once on SIGTERM (SHUTDOWN_DELAY_MS=0) unless `env` says otherwise.
 */
export async function startAppProcess(app: AppName, env: Record<string, string>): Promise<AppProcess> {
  const [port] = await freePorts(1);
  const portVariable = `${app.toUpperCase().replaceAll('-', '_')}_PORT`;
  const child = spawn(process.execPath, [`dist/apps/${app}/src/main.js`], {
    env: { ...process.env, LOG_LEVEL: 'error', SHUTDOWN_DELAY_MS: '0', ...env, [portVariable]: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_KEPT_CHARS));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<ProcessExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const ready = await fetch(`${origin}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${app} did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    origin,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    signal(signal) {
      child.kill(signal);
    },
    output: () => output,
  };
}

/** One more api-gateway process on the stack's Postgres, NATS and Redis, like another replica of a deployment. */
export async function startGateway(env: Record<string, string> = {}): Promise<ExtraGateway> {
  const gateway = await startAppProcess('api-gateway', { ...stackInfo().env, ...env });
  const baseUrl = `${gateway.origin}/api/v1`;
  return { ...gateway, baseUrl, call: (path, options) => request(`${baseUrl}${path}`, options) };
}

/** The limits of a fresh deployment: no TIER_LIMITS or ANON_LIMITS override. */
export const DEFAULT_LIMITS_ENV = { TIER_LIMITS: '', ANON_LIMITS: '' };
