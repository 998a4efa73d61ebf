import { spawn } from 'node:child_process';
import { freePorts } from '#libs/testing';
import { request, type ApiResponse, type CallOptions } from './api.js';
import { stackInfo } from './stack-env.js';

export interface ExtraGateway {
  /** {base_url} of this replica. */
  baseUrl: string;
  call<T = Record<string, unknown>>(path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/**
 * One more api-gateway process on the stack's Postgres, NATS and Redis, like another replica
 * of a deployment. `env` overrides the stack's (an empty value unsets a variable).
 */
export async function startGateway(env: Record<string, string> = {}): Promise<ExtraGateway> {
  const [port] = await freePorts(1);
  const child = spawn(process.execPath, ['dist/apps/api-gateway/src/main.js'], {
    env: { ...process.env, ...stackInfo().env, LOG_LEVEL: 'error', API_GATEWAY_PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const ready = await fetch(`${origin}/readyz`).then((res) => res.ok, () => false);
    if (ready) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the extra gateway did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const baseUrl = `${origin}/api/v1`;
  return {
    baseUrl,
    call: (path, options) => request(`${baseUrl}${path}`, options),
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The limits of a fresh deployment: no TIER_LIMITS or ANON_LIMITS override. */
export const DEFAULT_LIMITS_ENV = { TIER_LIMITS: '', ANON_LIMITS: '' };
