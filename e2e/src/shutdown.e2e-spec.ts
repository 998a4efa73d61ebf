import { request as httpRequest } from 'node:http';
import type { SignupView } from '#libs/contracts';
import { newTenant } from './support/api.js';
import { type AppProcess, type ExtraGateway, type ProcessExit, startAppProcess, startGateway } from './support/processes.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

/** How long each replica keeps serving after SIGTERM with /readyz at 503 (SHUTDOWN_DELAY_MS). */
const SIGNUPS_DELAY_MS = 1000;
const GATEWAY_DELAY_MS = 2500;
/** After the delay, the time an app has to finish and close before it exits with 1. */
const GRACE_AFTER_DELAY_MS = 10_000;
const LOOPS = 32;
const READINESS_POLL_MS = 25;

interface Outcome {
  what: 'read' | 'write';
  via: string;
  status: number | string;
  body?: unknown;
}

interface Target {
  name: string;
  baseUrl: string;
  ready: boolean;
}

/** What a load balancer does: round robin over the gateways whose /readyz last answered 200. */
class LoadBalancer {
  private next = 0;

  constructor(private readonly targets: Target[]) {}

  pick(): Target {
    const ready = this.targets.filter((t) => t.ready);
    return ready[this.next++ % ready.length]!;
  }
}

/** A readiness probe on one gateway, every 25 ms until its listener refuses connections. */
interface ReadinessWatch {
  /** When /readyz first answered 503, and what it said. */
  notReadyAt?: number;
  notReadyBody?: unknown;
  /** When a connection was first refused: the listener has closed. */
  refusedAt?: number;
  /** When /readyz last answered 200. */
  lastReadyAt?: number;
  done: Promise<void>;
}

function watchReadiness(origin: string, target: Target, until: Promise<unknown>): ReadinessWatch {
  let over = false;
  void until.then(() => (over = true));
  const watch: ReadinessWatch = { done: Promise.resolve() };
  watch.done = (async () => {
    while (!over && watch.refusedAt === undefined) {
      try {
        const res = await fetch(`${origin}/readyz`);
        const body: unknown = await res.json();
        if (res.status === 200) watch.lastReadyAt = Date.now();
        else if (watch.notReadyAt === undefined) {
          watch.notReadyAt = Date.now();
          watch.notReadyBody = body;
        }
        target.ready = res.status === 200;
      } catch {
        target.ready = false;
        watch.refusedAt = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, READINESS_POLL_MS));
    }
  })();
  return watch;
}

/**
 * A registration whose headers and first half of the body are sent now, and the rest on finish():
 * a request in flight for as long as the test wants.
 */
function slowRegistration(baseUrl: string, signupId: string, key: string) {
  const body = JSON.stringify(person());
  const half = Math.floor(body.length / 2);
  let resolveAnswer!: (value: { status: number; connection?: string; body: string }) => void;
  let rejectAnswer!: (err: Error) => void;
  const answer = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    resolveAnswer = resolve;
    rejectAnswer = reject;
  });
  const req = httpRequest(`${baseUrl}/signups/${signupId}/participants`, {
    method: 'POST',
    agent: false,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
  req.on('response', (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => resolveAnswer({ status: res.statusCode!, connection: res.headers.connection, body: text }));
  });
  req.on('error', rejectAnswer);
  req.flushHeaders();
  req.write(body.slice(0, half));
  return { answer, finish: () => req.end(body.slice(half)) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sum of bus_requests_handled_total in an app's /metrics. */
async function busRequestsHandled(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('bus_requests_handled_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/**
 * A second signups-service and a second api-gateway join the stack, like replicas of their
 * deployments, and each gets SIGTERM while steady load of reads and writes runs through both
 * gateways (routed by their readiness, as a load balancer does).
 */
describe('graceful shutdown under load', () => {
  let signups: AppProcess;
  let gateway: ExtraGateway;
  const outcomes: Outcome[] = [];
  let watch: ReadinessWatch;
  let signupsServed = 0;
  const sigterm = { signups: 0, gateway: 0 };
  const exits: { signups?: ProcessExit & { afterMs: number }; gateway?: ProcessExit & { afterMs: number } } = {};
  let inFlight: { status: number; connection?: string; body: string } | undefined;
  let answeredAfterListenerClosed = false;

  beforeAll(async () => {
    const env = stackInfo().env;
    [signups, gateway] = await Promise.all([
      startAppProcess('signups-service', { ...env, SHUTDOWN_DELAY_MS: String(SIGNUPS_DELAY_MS) }),
      startGateway({ SHUTDOWN_DELAY_MS: String(GATEWAY_DELAY_MS) }),
    ]);
    const { key } = await newTenant('pro');
    const { signup } = await newSignup(key);

    const stackGateway: Target = { name: 'stack', baseUrl: stackInfo().baseUrl, ready: true };
    const extraGateway: Target = { name: 'extra', baseUrl: gateway.baseUrl, ready: true };
    const balancer = new LoadBalancer([stackGateway, extraGateway]);
    watch = watchReadiness(gateway.origin, extraGateway, gateway.exited);

    let loading = true;
    const send = async (what: Outcome['what']): Promise<void> => {
      const target = balancer.pick();
      const init: RequestInit =
        what === 'read'
          ? { headers: { authorization: `Bearer ${key}` } }
          : {
              method: 'POST',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              body: JSON.stringify(person()),
            };
      const url = what === 'read' ? `${target.baseUrl}/signups/${signup.id}` : `${target.baseUrl}/signups/${signup.id}/participants`;
      try {
        const res = await fetch(url, init);
        const body: unknown = await res.json();
        const ok = res.status === (what === 'read' ? 200 : 201) && (what === 'write' || (body as SignupView).id === signup.id);
        outcomes.push({ what, via: target.name, status: res.status, ...(!ok && { body }) });
      } catch (err) {
        outcomes.push({ what, via: target.name, status: `${(err as Error).message} (${String((err as { cause?: unknown }).cause)})` });
      }
    };
    const loops = Array.from({ length: LOOPS }, async (_, i) => {
      for (let n = 0; loading; n++) await send((i + n) % 2 === 0 ? 'read' : 'write');
    });

    await sleep(1500);
    signupsServed = await busRequestsHandled(signups.origin);
    sigterm.signups = Date.now();
    signups.signal('SIGTERM');
    const signupsExit = signups.exited.then((exit) => (exits.signups = { ...exit, afterMs: Date.now() - sigterm.signups }));

    await sleep(1500);
    const slow = slowRegistration(gateway.baseUrl, signup.id, key);
    await sleep(100);
    sigterm.gateway = Date.now();
    gateway.signal('SIGTERM');
    const gatewayExit = gateway.exited.then((exit) => (exits.gateway = { ...exit, afterMs: Date.now() - sigterm.gateway }));
    await watch.done;
    answeredAfterListenerClosed = watch.refusedAt !== undefined;
    slow.finish();
    inFlight = await slow.answer;

    await Promise.all([signupsExit, gatewayExit]);
    await sleep(500);
    loading = false;
    await Promise.all(loops);
  }, 45_000);

  afterAll(async () => {
    await Promise.all([signups?.stop('SIGKILL'), gateway?.stop('SIGKILL')]);
  });

  it('answers every read and write of the steady load while a signups-service and a gateway replica shut down', () => {
    const failed = outcomes.filter((o) => o.status !== (o.what === 'read' ? 200 : 201) || o.body !== undefined);
    expect(failed).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(100);
    expect(outcomes.filter((o) => o.via === 'extra').length).toBeGreaterThan(20);
    expect(signupsServed).toBeGreaterThan(0);
  });

  it("turns the gateway's readiness to 503 at SIGTERM, and stops accepting connections only after the delay", () => {
    expect(watch.notReadyBody).toMatchObject({ status: 'shutting_down', detail: expect.stringContaining('shutting down') });
    expect(watch.notReadyAt!).toBeGreaterThan(sigterm.gateway);
    expect(watch.refusedAt).toBeDefined();
    expect(watch.refusedAt!).toBeGreaterThan(watch.notReadyAt!);
    expect(watch.refusedAt! - sigterm.gateway).toBeGreaterThanOrEqual(GATEWAY_DELAY_MS);
  });

  it('finishes a request in flight at SIGTERM, even once the listener has closed', () => {
    expect(answeredAfterListenerClosed).toBe(true);
    expect(inFlight).toMatchObject({ status: 201, connection: 'close' });
  });

  it('exits both processes with code 0 within their grace period', () => {
    expect(exits.signups).toMatchObject({ code: 0, signal: null });
    expect(exits.gateway).toMatchObject({ code: 0, signal: null });
    expect(exits.signups!.afterMs).toBeGreaterThanOrEqual(SIGNUPS_DELAY_MS);
    expect(exits.signups!.afterMs).toBeLessThan(SIGNUPS_DELAY_MS + GRACE_AFTER_DELAY_MS);
    expect(exits.gateway!.afterMs).toBeLessThan(GATEWAY_DELAY_MS + GRACE_AFTER_DELAY_MS);
  });
});
