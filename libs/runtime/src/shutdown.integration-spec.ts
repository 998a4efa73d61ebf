import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Module } from '@nestjs/common';
import { NatsBus } from '#libs/bus';
import { type HandlersOf, subjectsOf } from '#libs/contracts';
import { createLogger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { serving } from './app-definition.js';
import { bootApp, type RunningApp } from './boot.js';
import type { Infrastructure } from './infrastructure.js';

/**
 * Two replicas serving one queue group on this machine's NATS: the one that shuts down answers
 * what it already took, and the other takes everything sent meanwhile.
 */
const id = randomBytes(4).toString('hex');
const target = { url: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', prefix: `t${id}.`, streamName: `EVENTS_${id}` };
const logger = createLogger('shutdown-test', 'silent');
const connectBus = (name: string) => NatsBus.connect({ ...target, name, logger, defaultTimeoutMs: 5000 });

@Module({})
class EmptyModule {}

/** auth.* handlers answering auth.orgs.tier with `replica`, after `gate` when asked for the slow organization. */
function handlersOf(replica: string, gate?: { started(): void; released: Promise<void> }): HandlersOf<'auth'> {
  const handlers: Record<string, (req: never) => Promise<unknown>> = Object.fromEntries(
    subjectsOf('auth').map((subject) => [
      subject,
      async () => {
        throw new ProblemError('not_found');
      },
    ]),
  );
  handlers['auth.orgs.tier'] = async (req: { organizationId: string }) => {
    if (req.organizationId === 'slow' && gate) {
      gate.started();
      await gate.released;
    }
    return { tier: replica };
  };
  return handlers as unknown as HandlersOf<'auth'>;
}

describe('a replica shutting down under bus requests', () => {
  let client: NatsBus;
  let other: NatsBus;
  let replicaBus: NatsBus;
  let replica: RunningApp;

  beforeAll(async () => {
    [client, other, replicaBus] = await Promise.all([connectBus('client'), connectBus('other-replica'), connectBus('replica')]);
  });

  afterAll(async () => {
    await replica?.close();
    await Promise.all([client?.close(), other?.close(), replicaBus?.close()]);
    const nc = await connect({ servers: target.url });
    try {
      await (await jetstreamManager(nc)).streams.delete(target.streamName);
    } finally {
      await nc.close();
    }
  });

  const tierOf = (organizationId: string) => client.request('auth.orgs.tier', { organizationId }).then((r) => r.tier as string);

  it('answers the requests it took, while the other replica answers every request sent meanwhile', async () => {
    let started!: () => void;
    let release!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const gate = { started, released: new Promise<void>((resolve) => (release = resolve)) };
    const infrastructure: Infrastructure = {
      env: { AUTH_SERVER_PORT: '0', PROBLEM_BASE: 'http://problems.test/problems' },
      logLevel: 'silent',
      bus: replicaBus,
      dataSource: () => {
        throw new Error('no database in this test');
      },
      close: () => replicaBus.close(),
    };
    replica = await bootApp(
      { name: 'auth-server', module: () => ({ module: EmptyModule }), serve: serving('auth', () => handlersOf('leaving', gate)) },
      infrastructure,
    );
    const inFlight = tierOf('slow');
    await running;
    await other.serve('auth', handlersOf('staying'));

    let closed = false;
    const closing = replica.close().then(() => (closed = true));
    const during = await Promise.all(Array.from({ length: 30 }, () => tierOf('fast')));
    expect(during.every((tier) => tier === 'staying' || tier === 'leaving')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await Promise.all(Array.from({ length: 20 }, () => tierOf('fast')))).toEqual(Array(20).fill('staying'));
    expect(closed).toBe(false);

    release();
    expect(await inFlight).toBe('leaving');
    await closing;
    await expect(fetch(`${replica.url}/healthz`)).rejects.toThrow();
  });
});
