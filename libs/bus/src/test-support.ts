import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import {
  type CloudEvent,
  cloudEvent,
  type EventType,
  type HandlersOf,
  type Principal,
  type RequestOf,
  type ResponseOf,
  type ServiceName,
  type Subject,
} from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Bus, ConsumeOptions, ConsumerBacklog, EventHandler, JsonText, RequestOptions, Subscription } from './bus.js';
import type { BusLogger } from './envelope.js';

/** Retries fn until it stops throwing (or returns), failing with its last error after timeoutMs. */
export async function eventually<T>(fn: () => T | Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface LogEntry {
  level: 'error' | 'warn' | 'debug';
  obj: object;
  msg: string;
}

/** A logger that keeps its lines for assertions. */
export function recordingLogger(): BusLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return {
    entries,
    error: (obj, msg) => void entries.push({ level: 'error', obj, msg }),
    warn: (obj, msg) => void entries.push({ level: 'warn', obj, msg }),
    debug: (obj, msg) => void entries.push({ level: 'debug', obj, msg }),
  };
}

/** This machine's NATS, with a subject prefix and stream of the test run's own. */
export function natsTestTarget(): { url: string; prefix: string; streamName: string } {
  const id = randomBytes(4).toString('hex');
  return { url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', prefix: `t${id}.`, streamName: `EVENTS_${id}` };
}

export async function deleteStream(url: string, streamName: string): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    await (await jetstreamManager(nc)).streams.delete(streamName);
  } finally {
    await nc.close();
  }
}

const meta = { orgid: 'org_test', livemode: false };

export function testEvent(): CloudEvent<'auth.apikey.revoked'> {
  return cloudEvent('bus-test', 'auth.apikey.revoked', { apiKeyId: randomUUID(), organizationId: 'org_test', livemode: false }, meta);
}

export function otherEvent(): CloudEvent<'auth.organization.tier_changed'> {
  const data = { organizationId: 'org_test', tier: 'pro', previousTier: 'free', timeZone: 'UTC', livemode: false } as const;
  return cloudEvent('bus-test', 'auth.organization.tier_changed', data, meta);
}

export function uniqueName(label: string): string {
  return `${label}_${randomBytes(4).toString('hex')}`;
}

/** Ids in the order seen, and how many times each was seen. */
export class Seen {
  readonly ids: string[] = [];

  add(id: string): void {
    this.ids.push(id);
  }

  count(id: string): number {
    return this.ids.filter((seen) => seen === id).length;
  }
}

export function principal(userId: string): Principal {
  return { userId, organizationId: 'org_test', tier: 'free', livemode: false, scopes: [], credentialId: 'key_test', kind: 'api_key' };
}

/** The auth owner's handlers: apikeys.verify as given, the rest answering not_found. */
export function authHandlers(verify: HandlersOf<'auth'>['auth.apikeys.verify']): HandlersOf<'auth'> {
  const notFound = async (): Promise<never> => {
    throw new ProblemError('not_found');
  };
  return {
    'auth.apikeys.verify': verify,
    'auth.me': notFound,
    'auth.orgs.get': notFound,
    'auth.orgs.tier': notFound,
    'auth.orgs.profile': notFound,
    'auth.members.role': notFound,
    'auth.oauth.jwks': notFound,
    'auth.oauth.revocations': notFound,
  };
}

/** Wraps a bus to count published and handled event ids, and to fail publishing while `down`. */
export class SpyBus implements Bus {
  readonly published = new Seen();
  readonly handled = new Seen();
  down = false;

  constructor(private readonly inner: Bus) {}

  request<S extends Subject>(subject: S, payload: RequestOf<S>, options?: RequestOptions): Promise<ResponseOf<S>> {
    return this.inner.request(subject, payload, options);
  }

  requestJson<S extends Subject>(subject: S, payload: RequestOf<S>, options?: RequestOptions): Promise<JsonText<ResponseOf<S>>> {
    return this.inner.requestJson(subject, payload, options);
  }

  serve<O extends ServiceName>(owner: O, handlers: HandlersOf<O>): Promise<Subscription> {
    return this.inner.serve(owner, handlers);
  }

  async publish(event: CloudEvent): Promise<void> {
    if (this.down) throw new Error('bus is down');
    await this.inner.publish(event);
    this.published.add(event.id);
  }

  consume<T extends EventType>(options: ConsumeOptions<T>, handler: EventHandler<T>): Promise<Subscription> {
    return this.inner.consume(options, async (event) => {
      await handler(event);
      this.handled.add(event.id);
    });
  }

  broadcast<T extends EventType>(types: readonly T[], handler: EventHandler<T>): Promise<Subscription> {
    return this.inner.broadcast(types, handler);
  }

  backlog(durable: string): Promise<ConsumerBacklog> {
    return this.inner.backlog(durable);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connectTcp(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A nats-server of the test's own (JetStream on) with extra configuration, e.g. an authorization block. */
export async function startNatsServer(extraConfig: string): Promise<{ url: string; close(): Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'nats-auth-'));
  const configFile = join(dir, 'nats.conf');
  writeFileSync(configFile, `listen: "127.0.0.1:${port}"\njetstream { store_dir: ${JSON.stringify(join(dir, 'js'))} }\n${extraConfig}`);
  const child = spawn(NATS_SERVER, ['-c', configFile], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nats-server did not start with ${configFile}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
