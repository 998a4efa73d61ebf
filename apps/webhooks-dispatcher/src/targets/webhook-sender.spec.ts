import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  closeWebhookConnections,
  errorMessageOf,
  parseRetryAfter,
  postWebhook,
  type PostWebhookOptions,
  type SendResult,
} from './webhook-sender.js';

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

interface TestServer {
  url: URL;
  received: Received[];
  server: Server;
  /** One per TCP connection accepted, settled once it is closed. */
  connections: Promise<void>[];
}

/** Starts an HTTP server on 127.0.0.1 that tracks connections and records each request body, then hands the request to `respond`. */
async function startServer(respond: (res: ServerResponse, req: IncomingMessage) => void): Promise<TestServer> {
  const received: Received[] = [];
  const listener: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      respond(res, req);
    });
  };
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const connections: Promise<void>[] = [];
  server.on('connection', (socket) => connections.push(new Promise((resolve) => socket.once('close', () => resolve()))));
  return { url: new URL(`http://127.0.0.1:${port}/hook`), received, server, connections };
}

/** Closes a test server, dropping any connections it still holds. */
async function stopServer({ server }: TestServer): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

const LOCAL: PostWebhookOptions = { timeoutMs: 2000, allowPrivate: true };
const PAYLOAD = JSON.stringify({ type: 'signup.created', id: 'evt_1' });

describe('postWebhook', () => {
  const servers: TestServer[] = [];
  const serve = async (respond: (res: ServerResponse, req: IncomingMessage) => void): Promise<TestServer> => {
    const started = await startServer(respond);
    servers.push(started);
    return started;
  };

  afterAll(async () => {
    closeWebhookConnections();
    await Promise.all(servers.map(stopServer));
  });

  it('posts JSON with the default and given headers and captures a 2xx body truncated to maxResponseBytes', async () => {
    const target = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(5000));
    });
    const result = await postWebhook(target.url, { 'webhook-id': 'msg_1' }, PAYLOAD, { ...LOCAL, maxResponseBytes: 16 });

    expect(result).toMatchObject({ status: 200, body: 'x'.repeat(16), error: null, retryAfterSeconds: null });
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(target.received).toHaveLength(1);
    const [request] = target.received;
    expect(request).toMatchObject({ method: 'POST', url: '/hook', body: PAYLOAD });
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'signup-platform-webhooks/1',
      'webhook-id': 'msg_1',
    });
  });

  it('keeps at most 1024 bytes by default', async () => {
    const target = await serve((res) => res.end('y'.repeat(3000)));
    const result = await postWebhook(target.url, {}, PAYLOAD, LOCAL);
    expect(result.status).toBe(200);
    expect(result.body).toBe('y'.repeat(1024));
  });

  it('returns a short body whole', async () => {
    const target = await serve((res) => res.writeHead(202).end('ok'));
    await expect(postWebhook(target.url, {}, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 202, body: 'ok', error: null });
  });

  it('reports a non-2xx status without an error', async () => {
    const target = await serve((res) => res.writeHead(500).end('boom'));
    await expect(postWebhook(target.url, {}, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 500, body: 'boom', error: null });
  });

  it('does not follow redirects', async () => {
    const target = await serve((res, req) => {
      if (req.url === '/hook') res.writeHead(302, { location: '/elsewhere' }).end();
      else res.writeHead(200).end('followed');
    });
    const result = await postWebhook(target.url, {}, PAYLOAD, LOCAL);
    expect(result).toMatchObject({ status: 302, body: '', error: null });
    expect(target.received.map((request) => request.url)).toEqual(['/hook']);
  });

  it('parses Retry-After given in seconds', async () => {
    const target = await serve((res) => res.writeHead(429, { 'retry-after': '120' }).end());
    await expect(postWebhook(target.url, {}, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 429, retryAfterSeconds: 120 });
  });

  it('parses Retry-After given as an HTTP date', async () => {
    const at = new Date(Date.now() + 90_000).toUTCString();
    const target = await serve((res) => res.writeHead(503, { 'retry-after': at }).end());
    const result = await postWebhook(target.url, {}, PAYLOAD, LOCAL);
    expect(result.status).toBe(503);
    expect(result.retryAfterSeconds).toBeGreaterThanOrEqual(87);
    expect(result.retryAfterSeconds).toBeLessThanOrEqual(90);
  });

  it('times out a server that never answers', async () => {
    const target = await serve(() => undefined);
    const started = Date.now();
    const result = await postWebhook(target.url, {}, PAYLOAD, { timeoutMs: 300, allowPrivate: true });
    const elapsed = Date.now() - started;

    expect(result).toMatchObject({ status: null, body: null, error: 'timeout after 300 ms' });
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
  });

  it('times out a response body that never ends', async () => {
    const target = await serve((res) => {
      res.writeHead(200);
      res.write('partial');
    });
    const result = await postWebhook(target.url, {}, PAYLOAD, { timeoutMs: 300, allowPrivate: true });
    expect(result).toMatchObject({ status: null, error: 'timeout after 300 ms' });
  });

  it('reports a refused connection', async () => {
    const closed = await startServer(() => undefined);
    await stopServer(closed);
    const result = await postWebhook(closed.url, {}, PAYLOAD, LOCAL);
    expect(result.status).toBeNull();
    expect(result.error).toContain('ECONNREFUSED');
  });

  it('refuses a private literal IP without connecting when private URLs are not allowed', async () => {
    const target = await serve((res) => res.end('ok'));
    const result = await postWebhook(target.url, {}, PAYLOAD, { timeoutMs: 2000, allowPrivate: false });
    expect(result).toMatchObject({ status: null, body: null, error: 'url points to a private address (127.0.0.1)' });
    expect(target.received).toHaveLength(0);
  });

  it('refuses a hostname resolving to loopback at lookup when private URLs are not allowed', async () => {
    const target = await serve((res) => res.end('ok'));
    const byName = new URL(target.url);
    byName.hostname = 'localhost';
    const result = await postWebhook(byName, {}, PAYLOAD, { timeoutMs: 2000, allowPrivate: false });
    expect(result.status).toBeNull();
    expect(result.error).toBe('url resolves to a private address');
    expect(target.received).toHaveLength(0);
  });

  it('reaches a hostname resolving to loopback when private URLs are allowed', async () => {
    const target = await serve((res) => res.end('ok'));
    const byName = new URL(target.url);
    byName.hostname = 'localhost';
    await expect(postWebhook(byName, {}, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 200, body: 'ok', error: null });
  });

  it('sends one after another to a receiver over one connection', async () => {
    const target = await serve((res) => res.end('ok'));
    for (const id of ['msg_1', 'msg_2', 'msg_3']) {
      await expect(postWebhook(target.url, { 'webhook-id': id }, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 200, body: 'ok' });
    }
    expect(target.received.map((request) => request.headers['webhook-id'])).toEqual(['msg_1', 'msg_2', 'msg_3']);
    expect(target.connections).toHaveLength(1);
  });

  it('sends on a connection of its own when asked, leaving the kept ones alone', async () => {
    const target = await serve((res) => res.end('ok'));
    await postWebhook(target.url, {}, PAYLOAD, LOCAL);
    await expect(postWebhook(target.url, {}, PAYLOAD, { ...LOCAL, ownConnection: true })).resolves.toMatchObject({
      status: 200,
      body: 'ok',
    });
    await postWebhook(target.url, {}, PAYLOAD, LOCAL);
    expect(target.connections).toHaveLength(2);
  });

  it('keeps a connection after a failure status whose body was read whole', async () => {
    const target = await serve((res) => res.writeHead(500).end('boom'));
    await postWebhook(target.url, {}, PAYLOAD, LOCAL);
    await expect(postWebhook(target.url, {}, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 500, body: 'boom' });
    expect(target.connections).toHaveLength(1);
  });

  it('closes the connection of a body cut off at maxResponseBytes and sends the next on a new one', async () => {
    const target = await serve((res, req) => {
      if (req.headers['webhook-id'] === 'big') res.write('x'.repeat(100_000));
      else res.end('ok');
    });
    await expect(postWebhook(target.url, { 'webhook-id': 'big' }, PAYLOAD, LOCAL)).resolves.toMatchObject({
      status: 200,
      body: 'x'.repeat(1024),
    });
    await expect(postWebhook(target.url, { 'webhook-id': 'small' }, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 200, body: 'ok' });
    expect(target.connections).toHaveLength(2);
    await target.connections[0];
  });

  it('closes the connection of a timed-out answer and gets the next one whole on a new one', async () => {
    const target = await serve((res, req) => {
      res.writeHead(200);
      if (req.headers['webhook-id'] === 'slow') res.write('partial');
      else res.end('ok');
    });
    const slow = await postWebhook(target.url, { 'webhook-id': 'slow' }, PAYLOAD, { timeoutMs: 300, allowPrivate: true });
    expect(slow).toMatchObject({ error: 'timeout after 300 ms' });
    await expect(postWebhook(target.url, { 'webhook-id': 'fast' }, PAYLOAD, LOCAL)).resolves.toMatchObject({
      status: 200,
      body: 'ok',
      error: null,
    });
    expect(target.connections).toHaveLength(2);
    await target.connections[0];
  });

  it('sends once more on a new connection when the receiver drops a kept one', async () => {
    const requestsOn = new WeakMap<object, number>();
    const target = await serve((res, req) => {
      const count = (requestsOn.get(req.socket) ?? 0) + 1;
      requestsOn.set(req.socket, count);
      if (count > 1) req.socket.destroy();
      else res.end('ok');
    });
    await postWebhook(target.url, {}, PAYLOAD, LOCAL);
    await expect(postWebhook(target.url, {}, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 200, body: 'ok', error: null });
    expect(target.received).toHaveLength(3);
    expect(target.connections).toHaveLength(2);
  });

  it('does not reuse a connection opened while private targets were allowed once they are not', async () => {
    const target = await serve((res) => res.end('ok'));
    const byName = new URL(target.url);
    byName.hostname = 'localhost';
    await expect(postWebhook(byName, {}, PAYLOAD, LOCAL)).resolves.toMatchObject({ status: 200 });
    const result = await postWebhook(byName, {}, PAYLOAD, { timeoutMs: 2000, allowPrivate: false });
    expect(result).toMatchObject({ status: null, error: 'url resolves to a private address' });
    expect(target.received).toHaveLength(1);
  });

  it('refuses a non-http scheme', async () => {
    const result = await postWebhook(new URL('ftp://example.com/'), {}, PAYLOAD, LOCAL);
    expect(result).toMatchObject({ status: null, error: 'url must use http or https' });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it.each([
    [undefined, null],
    ['0', 0],
    [' 30 ', 30],
    ['Thu, 01 Jan 2026 00:01:00 GMT', 60],
    ['Wed, 31 Dec 2025 23:59:00 GMT', 0],
    ['soon', null],
    ['-5', null],
    ['2026-01-01T00:01:00Z', null],
    ['Thursday, 01-Jan-26 00:00:30 GMT', 30],
    ['Thu Jan  1 00:00:10 2026', 10],
  ])('parses %p as %p', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('errorMessageOf', () => {
  const answer = (status: number | null): SendResult => ({
    status,
    body: null,
    latencyMs: 5,
    error: status === null ? 'connect ECONNREFUSED 127.0.0.1:1' : null,
    retryAfterSeconds: null,
  });

  it('keeps the transport error, or names the status', () => {
    expect(errorMessageOf(answer(null))).toBe('connect ECONNREFUSED 127.0.0.1:1');
    expect(errorMessageOf(answer(503))).toBe('HTTP 503');
    expect(errorMessageOf(answer(200))).toBeNull();
  });
});
