import { connect, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { InProcessBus } from '#libs/bus';
import { ConfigError, type Env } from '#libs/config';
import { createLogger } from '#libs/observability';
import { Auth } from '#libs/scopes';
import { bootApp, type RunningApp } from './boot.js';
import type { Infrastructure } from './infrastructure.js';

/**
 * Slow clients against a real listener, over raw TCP: a client that trickles its headers or its
 * body is cut once HTTP_HEADERS_TIMEOUT_MS or HTTP_REQUEST_TIMEOUT_MS has passed, and an idle
 * keep-alive connection once HTTP_KEEP_ALIVE_TIMEOUT_MS has. The timeouts are set short here; each
 * wait for a close is bounded well below what the client would take to finish on its own.
 */
const CLOSE_WAIT_MS = 5_000;
/** A trickling client sends one byte this often: it would need minutes to finish. */
const TRICKLE_EVERY_MS = 100;

/** The request to /things/slow in flight: it answers once released. */
function hold() {
  let started!: () => void;
  let release!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { running, released, started, release };
}

let held = hold();

@Controller('things')
class ThingsController {
  @Post() @Auth.public() create(@Body() body: object): object {
    return { got: body };
  }

  /** Answers once the test releases it, however long after its request came in. */
  @Get('slow') @Auth.public() async slow(): Promise<object> {
    held.started();
    await held.released;
    return { finished: true };
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

const bus = new InProcessBus(createLogger('test', 'silent'));
afterAll(() => bus.close());

async function boot(env: Env): Promise<RunningApp> {
  const infrastructure: Infrastructure = {
    env: { SIGNUPS_SERVICE_PORT: '0', PROBLEM_BASE: 'http://problems.test/problems', ...env },
    logLevel: 'silent',
    bus,
    dataSource: () => {
      throw new Error('no database in this test');
    },
    close: () => bus.close(),
  };
  return bootApp({ name: 'signups-service', module: () => ({ module: ThingsModule }) }, infrastructure);
}

/** A raw connection: what the server wrote, and whether it closed the connection. */
class RawClient {
  private readonly socket: Socket;
  private received = '';
  private readonly closed: Promise<void>;
  private trickle?: NodeJS.Timeout;

  constructor(running: RunningApp) {
    const { hostname, port } = new URL(running.url);
    this.socket = connect(Number(port), hostname);
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** Sends one byte of `char` every TRICKLE_EVERY_MS until the connection closes. */
  trickleForever(char: string): void {
    this.trickle = setInterval(() => this.socket.writable && this.socket.write(char), TRICKLE_EVERY_MS);
  }

  /** Waits until the server has written `text`, for CLOSE_WAIT_MS at most. */
  async waitFor(text: string): Promise<string> {
    for (const deadline = Date.now() + CLOSE_WAIT_MS; !this.received.includes(text) && Date.now() < deadline;) await delay(20);
    return this.received;
  }

  /** Whether the server closed the connection within CLOSE_WAIT_MS, and what it wrote. */
  async closedByServer(): Promise<{ closed: boolean; received: string }> {
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      this.closed.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS, false))),
    ]);
    clearTimeout(timer);
    return { closed, received: this.received };
  }

  destroy(): void {
    clearInterval(this.trickle);
    this.socket.destroy();
  }
}

describe('HTTP timeouts of a listener', () => {
  let running: RunningApp;
  const clients: RawClient[] = [];
  const client = () => {
    const opened = new RawClient(running);
    clients.push(opened);
    return opened;
  };

  beforeAll(async () => {
    running = await boot({ HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' });
  });

  afterEach(() => {
    held.release();
    for (const opened of clients.splice(0)) opened.destroy();
  });

  afterAll(() => running.close());

  it('answers 408 and closes the connection of a client that trickles its body past the request timeout', async () => {
    const slow = client();
    slow.send('POST /things HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{"a":"');
    slow.trickleForever('x');
    const { closed, received } = await slow.closedByServer();
    expect(closed).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that never sends a request', async () => {
    const silent = client();
    expect((await silent.closedByServer()).closed).toBe(true);
  });

  it('still serves a request sent at once, whose body is read in time', async () => {
    const res = await fetch(`${running.url}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ got: { a: 1 } });
  });

  it('answers a request whose handler takes longer than the request timeout: it bounds receiving the request, not the answer', async () => {
    held = hold();
    const answer = fetch(`${running.url}/things/slow`);
    await held.running;
    await delay(1_500);
    held.release();
    const res = await answer;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ finished: true });
  });

  it('announces the keep-alive timeout and closes a connection left idle past it', async () => {
    const idle = client();
    idle.send('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
    const response = await idle.waitFor('{"status":"ok"}');
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    expect(response).toMatch(/\r\nKeep-Alive: timeout=1\r\n/i);
    expect((await idle.closedByServer()).closed).toBe(true);
  });
});

describe('the headers timeout', () => {
  let running: RunningApp;
  let slow: RawClient | undefined;

  beforeAll(async () => {
    running = await boot({ HTTP_HEADERS_TIMEOUT_MS: '300' });
  });

  afterAll(async () => {
    slow?.destroy();
    await running.close();
  });

  it('cuts a client that trickles its headers, long before the 30 s the whole request may take', async () => {
    slow = new RawClient(running);
    slow.send('GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: ');
    slow.trickleForever('x');
    const { closed, received } = await slow.closedByServer();
    expect(closed).toBe(true);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('HTTP timeouts at boot', () => {
  /** The error boot fails with; an app that boots anyway is closed, and the test fails. */
  async function bootFailure(env: Env): Promise<unknown> {
    try {
      await (await boot(env)).close();
    } catch (err) {
      return err;
    }
    throw new Error('the app booted');
  }

  it('refuses a timeout turned off, naming the variable', async () => {
    const err = await bootFailure({ HTTP_REQUEST_TIMEOUT_MS: '0' });
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual(['HTTP_REQUEST_TIMEOUT_MS must be an integer between 100 and 300000 (got "0")']);
  });

  it('refuses a headers timeout longer than the request timeout', async () => {
    const err = await bootFailure({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' });
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toContain('HTTP_HEADERS_TIMEOUT_MS (5000) must not exceed HTTP_REQUEST_TIMEOUT_MS (1000)');
  });
});
