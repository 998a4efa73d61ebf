import { Agent, request as httpRequest } from 'node:http';
import { Body, Controller, Get, Inject, Module, Post } from '@nestjs/common';
import { InProcessBus } from '#libs/bus';
import { ConfigError, type Field, FieldProblem, loadConfig } from '#libs/config';
import { type HandlersOf, subjectsOf } from '#libs/contracts';
import { createLogger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { Auth } from '#libs/scopes';
import type { AppContext } from './app-definition.js';
import { bootApp, type RunningApp } from './boot.js';
import type { Infrastructure } from './infrastructure.js';
import { shutdownSpec } from './services-infrastructure.js';
import { APP_CONFIG } from './tokens.js';

@Controller('things')
class ThingsController {
  @Get('boom') @Auth.public() boom(): never {
    throw new Error('relation "secret_table" does not exist');
  }
  @Get('gone') @Auth.public() gone(): never {
    throw new ProblemError('not_found', 'No such thing.');
  }
  @Get('by/:id') @Auth.public() byId(): object {
    return {};
  }
  @Get('undeclared') undeclared(): object {
    return { leaked: true };
  }
  @Post() @Auth.public() create(@Body() body: unknown) {
    return { got: body };
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

/** A request the test holds in flight: the handler waits until released. */
class Held {
  private release?: () => void;
  private started?: () => void;
  readonly running = new Promise<void>((resolve) => (this.started = resolve));

  wait(): Promise<void> {
    this.started!();
    return new Promise((resolve) => (this.release = resolve));
  }

  finish(): void {
    this.release?.();
  }
}

let held = new Held();

@Controller('slow')
class SlowController {
  @Get() @Auth.public() async slow(): Promise<object> {
    await held.wait();
    return { finished: true };
  }
}

@Module({ controllers: [SlowController] })
class SlowModule {}

/** GREETING, counting how often it is read. */
const greetingReads = { count: 0 };
const greetingField: Field<string> = {
  name: 'GREETING',
  read(raw) {
    greetingReads.count++;
    if (raw === 'boom') throw new FieldProblem('GREETING must not be boom');
    return raw ?? 'hello';
  },
};
const greetingSpec = { greeting: greetingField };

@Controller('greeting')
class GreetingController {
  constructor(@Inject(APP_CONFIG) private readonly config: { greeting: string }) {}

  @Get() @Auth.public() greet(): object {
    return { greeting: this.config.greeting };
  }
}

@Module({ controllers: [GreetingController] })
class GreetingModule {}

function testInfrastructure(bus: InProcessBus): Infrastructure {
  return {
    env: { SIGNUPS_SERVICE_PORT: '0', PROBLEM_BASE: 'http://problems.test/problems' },
    logLevel: 'silent',
    bus,
    dataSource: () => {
      throw new Error('no database in this test');
    },
    close: () => bus.close(),
  };
}

/** A GET over a keep-alive connection of `agent`, read to the end. */
function get(agent: Agent, url: string): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('bootApp', () => {
  let running: RunningApp;
  const bus = new InProcessBus(createLogger('test', 'silent'));

  beforeAll(async () => {
    running = await bootApp({ name: 'signups-service', module: () => ({ module: ThingsModule }) }, testInfrastructure(bus));
  });

  afterAll(async () => {
    await running.close();
    await bus.close();
  });

  it('serves liveness, readiness and metrics', async () => {
    expect(await (await fetch(`${running.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${running.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { bus: { status: 'up' } } });
    const metrics = await fetch(`${running.url}/metrics`);
    expect(await metrics.text()).toContain('http_request_duration_seconds');
  });

  it('answers an unknown route with a not_found problem', async () => {
    const res = await fetch(`${running.url}/nope`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({ code: 'not_found', type: 'http://problems.test/problems/not-found' });
  });

  it('hides unexpected failures behind internal_error with the request id', async () => {
    const res = await fetch(`${running.url}/things/boom`, { headers: { 'x-request-id': 'req-abc' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('req-abc');
    const body = await res.json();
    expect(body).toMatchObject({ code: 'internal_error', instance: 'urn:request:req-abc' });
    expect(JSON.stringify(body)).not.toContain('secret_table');
  });

  it('renders thrown problems', async () => {
    const res = await fetch(`${running.url}/things/gone`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found', detail: 'No such thing.' });
  });

  it('answers malformed JSON with validation_failed', async () => {
    const res = await fetch(`${running.url}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body', message: 'Malformed JSON' }] });
  });

  const post = (body: string | Uint8Array) =>
    fetch(`${running.url}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it.each([
    ['objects', `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`],
    ['arrays', `${'['.repeat(2000)}${']'.repeat(2000)}`],
    ['arrays inside a field', `{"title":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
  ])('answers a body of %s nested thousands deep with validation_failed on body', async (_case, body) => {
    const res = await post(body);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'body', message: 'Nested too deeply: at most 32 levels' }],
    });
  });

  it('reads a body nested as deep as allowed', async () => {
    const res = await post(`${'['.repeat(31)}{"a":1}${']'.repeat(31)}`);
    expect(res.status).toBe(201);
  });

  it('answers bytes that are not UTF-8 with validation_failed on body', async () => {
    const res = await post(Buffer.concat([Buffer.from('{"title":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ errors: [{ path: 'body', message: 'Must be valid UTF-8' }] });
  });

  it.each(['{"__proto__":{"admin":true}}', '{"a":[{"constructor":{"prototype":{"admin":true}}}]}'])(
    'answers the prototype-polluting body %s with validation_failed on body',
    async (body) => {
      const res = await post(body);
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        errors: [{ path: 'body', message: 'Must not contain __proto__ or constructor.prototype' }],
      });
    },
  );

  it('keeps brackets inside strings and escaped quotes out of the depth', async () => {
    const res = await post(JSON.stringify({ title: `\\"${'['.repeat(1000)}`, constructor: 'x' }));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ got: { title: `\\"${'['.repeat(1000)}`, constructor: 'x' } });
  });

  it('counts and times every bus request the app serves, by outcome', async () => {
    const handlers = Object.fromEntries(
      subjectsOf('signups').map((subject) => [
        subject,
        async () => {
          throw new ProblemError('not_found');
        },
      ]),
    ) as unknown as HandlersOf<'signups'>;
    const served = await running.context.bus.serve('signups', handlers);
    try {
      await expect(bus.request('signups.list', { principal: {} as never, query: {} })).rejects.toMatchObject({ code: 'not_found' });
      const text = await (await fetch(`${running.url}/metrics`)).text();
      expect(text).toContain('bus_requests_handled_total{subject="signups.list",outcome="not_found",app="signups-service"} 1');
      expect(text).toContain('bus_request_duration_seconds_count{app="signups-service",subject="signups.list"} 1');
    } finally {
      await served.stop();
    }
  });

  it('answers router errors (bad encoding, over-long parameters) as problems with the request id', async () => {
    const badEncoding = await fetch(`${running.url}/things/by/%E0%A4%A`, { headers: { 'x-request-id': 'req-enc' } });
    expect(badEncoding.status).toBe(422);
    expect(badEncoding.headers.get('x-request-id')).toBe('req-enc');
    expect(await badEncoding.json()).toMatchObject({ code: 'validation_failed', instance: 'urn:request:req-enc' });
    // The router's own limit is 100 characters; ours (512) reaches it through Fastify 5's routerOptions.
    expect((await fetch(`${running.url}/things/by/${'a'.repeat(512)}`)).status).toBe(200);
    const long = await fetch(`${running.url}/things/by/${'a'.repeat(513)}`);
    expect(long.status).toBe(422);
    expect(long.headers.get('content-type')).toContain('application/problem+json');
  });

  it('refuses a route that declares no access requirement', async () => {
    const res = await fetch(`${running.url}/things/undeclared`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'internal_error' });
  });

  it('generates a request id when the caller sends none', async () => {
    const res = await fetch(`${running.url}/healthz`);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('bootApp shutting down', () => {
  let running: RunningApp;
  let agent: Agent;
  const bus = new InProcessBus(createLogger('test', 'silent'));

  beforeEach(async () => {
    held = new Held();
    agent = new Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    running = await bootApp({ name: 'signups-service', module: () => ({ module: SlowModule }) }, testInfrastructure(bus));
  });

  afterEach(async () => {
    held.finish();
    await running.close();
    agent.destroy();
  });

  afterAll(() => bus.close());

  it('answers /readyz with 503 shutting_down once shutdown begins, without asking its dependencies', async () => {
    expect((await fetch(`${running.url}/readyz`)).status).toBe(200);
    running.beginShutdown();
    const res = await fetch(`${running.url}/readyz`);
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'shutting_down', detail: expect.stringContaining('shutting down'), checks: {} });
  });

  it('keeps serving requests after shutdown begins, each on a connection it then closes', async () => {
    const before = await get(agent, `${running.url}/healthz`);
    expect(before).toMatchObject({ status: 200, connection: 'keep-alive' });
    running.beginShutdown();
    const after = await get(agent, `${running.url}/healthz`);
    expect(after).toMatchObject({ status: 200, connection: 'close', body: '{"status":"ok"}' });
    expect((await get(agent, `${running.url}/healthz`)).status).toBe(200);
  });

  it('finishes a request in flight when it closes, and closes its keep-alive connection at once', async () => {
    const inFlight = get(agent, `${running.url}/slow`);
    await held.running;
    let closed = false;
    const closing = running.close().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closed).toBe(false);
    const readiness = await fetch(`${running.url}/readyz`).then(
      (res) => res.status,
      () => 'refused',
    );
    expect(readiness).toBe('refused');

    held.finish();
    expect(await inFlight).toEqual({ status: 200, connection: 'close', body: '{"finished":true}' });
    const started = Date.now();
    await closing;
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe("bootApp reading the app's settings", () => {
  const bus = new InProcessBus(createLogger('test', 'silent'));
  const withGreeting = (GREETING: string): Infrastructure => {
    const infrastructure = testInfrastructure(bus);
    return { ...infrastructure, env: { ...infrastructure.env, GREETING } };
  };

  beforeEach(() => {
    greetingReads.count = 0;
  });

  afterAll(() => bus.close());

  it('reads them once, and hands the same object to every hook and to APP_CONFIG', async () => {
    const seen: { greeting: string }[] = [];
    const see = (context: AppContext<{ readonly greeting: string }>) => void seen.push(context.config);
    const running = await bootApp(
      {
        name: 'signups-service',
        config: greetingSpec,
        module: (context) => {
          see(context);
          return { module: GreetingModule };
        },
        fastify: (context) => {
          see(context);
          return {};
        },
        configure: (_app, context) => see(context),
        start: async (_app, context) => see(context),
      },
      withGreeting('hi'),
    );
    try {
      expect(greetingReads.count).toBe(1);
      expect(seen).toEqual([{ greeting: 'hi' }, { greeting: 'hi' }, { greeting: 'hi' }, { greeting: 'hi' }]);
      expect(new Set(seen).size).toBe(1);
      expect(running.context.config).toBe(seen[0]);
      expect(await (await fetch(`${running.url}/greeting`)).json()).toEqual({ greeting: 'hi' });
    } finally {
      await running.close();
    }
  });

  it('refuses to boot on a bad one, naming it once, before building anything', async () => {
    let built = false;
    const boot = bootApp(
      {
        name: 'signups-service',
        config: greetingSpec,
        module: () => {
          built = true;
          return { module: GreetingModule };
        },
      },
      withGreeting('boom'),
    );
    await expect(boot).rejects.toThrow(new ConfigError(['GREETING must not be boom']));
    expect(greetingReads.count).toBe(1);
    expect(built).toBe(false);
  });
});

describe('SHUTDOWN_DELAY_MS', () => {
  it('keeps serving 5 s after SIGTERM unless told otherwise', () => {
    expect(loadConfig(shutdownSpec, {})).toEqual({ shutdownDelayMs: 5000 });
    expect(loadConfig(shutdownSpec, { SHUTDOWN_DELAY_MS: '0' })).toEqual({ shutdownDelayMs: 0 });
  });

  it('refuses a delay that would leave no time to drain within the 30 s a pod is given', () => {
    expect(() => loadConfig(shutdownSpec, { SHUTDOWN_DELAY_MS: '20000' })).toThrow(ConfigError);
    expect(() => loadConfig(shutdownSpec, { SHUTDOWN_DELAY_MS: 'soon' })).toThrow(
      'SHUTDOWN_DELAY_MS must be an integer between 0 and 15000 (got "soon")',
    );
  });
});
