import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, isProblem, ProblemError, type SignupClient, UnexpectedPageError, UnexpectedResponseError } from './index.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (req: Seen, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 that answers each request with the next of its queued answers. */
async function startServer(): Promise<{ url: string; seen: Seen[]; answer(...answers: Answer[]): void; close(): Promise<void> }> {
  const queue: Answer[] = [];
  const seen: Seen[] = [];
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const request = { method: req.method!, url: req.url!, headers: req.headers, body };
    seen.push(request);
    const next = queue.shift();
    if (next) next(request, res);
    else res.writeHead(599).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v1`,
    seen,
    answer: (...answers) => queue.push(...answers),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
  (_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

const problem =
  (status: number, code: string, headers: Record<string, string> = {}, extra: object = {}): Answer =>
  (_req, res) =>
    res
      .writeHead(status, { 'content-type': 'application/problem+json', 'x-request-id': 'req-1', ...headers })
      .end(JSON.stringify({ type: `https://example.com/problems/${code}`, title: code, status, code, ...extra }));

/** Drops the connection before answering: fetch fails with a network error. */
const hangUp: Answer = (_req, res) => res.socket!.destroy();

const SIGNUP = { id: 'a1', title: 'Bake sale' };

describe('the client over HTTP', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let waits: number[];
  let client: SignupClient;

  beforeEach(async () => {
    server = await startServer();
    waits = [];
    client = createClient({
      baseUrl: `${server.url}/`,
      token: 'sgn_test_secret',
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.5,
      retry: { maxRetries: 2 },
    });
  });

  afterEach(() => server.close());

  it('sends the bearer credential, path parameters, the query and the JSON body to the base URL', async () => {
    server.answer(json(200, SIGNUP), json(201, SIGNUP));
    const read = await client.get('/signups/{id}', { params: { id: 'a/b c' }, query: undefined });
    const created = await client.post('/signups', {
      body: { title: 'Bake sale', eventDate: '2027-01-01', timeZone: 'Europe/Paris' } as never,
    });
    expect([read, created]).toEqual([SIGNUP, SIGNUP]);
    expect(server.seen.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([
      ['GET', '/api/v1/signups/a%2Fb%20c', 'Bearer sgn_test_secret'],
      ['POST', '/api/v1/signups', 'Bearer sgn_test_secret'],
    ]);
    expect(server.seen[1]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(server.seen[1]!.body)).toEqual({ title: 'Bake sale', eventDate: '2027-01-01', timeZone: 'Europe/Paris' });
  });

  it('asks a token function before every attempt, so a refreshed OAuth token is used', async () => {
    const tokens = ['first-token', 'refreshed-token'];
    const oauth = createClient({ baseUrl: server.url, token: () => tokens.shift()!, sleep: async () => {}, random: () => 0 });
    server.answer(problem(503, 'upstream_unavailable', { 'retry-after': '1' }), json(200, { data: [], nextCursor: null }));
    await oauth.get('/signups');
    expect(server.seen.map((r) => r.headers.authorization)).toEqual(['Bearer first-token', 'Bearer refreshed-token']);
  });

  it('waits as Retry-After says on 429 and 503, then answers', async () => {
    server.answer(
      problem(429, 'rate_limited', { 'retry-after': '7' }),
      problem(503, 'upstream_unavailable', { 'retry-after': '2' }),
      json(200, SIGNUP),
    );
    expect(await client.get('/signups/{id}', { params: { id: 'a1' } })).toEqual(SIGNUP);
    expect(waits).toEqual([7000, 2000]);
    expect(server.seen).toHaveLength(3);
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    server.answer(problem(429, 'rate_limited', { 'retry-after': at }), json(200, SIGNUP));
    await client.get('/signups/{id}', { params: { id: 'a1' } });
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(25_000);
    expect(waits[0]).toBeLessThanOrEqual(31_000);
  });

  it('does not wait for a Retry-After past its limit: the problem is thrown with retryAfter', async () => {
    server.answer(problem(429, 'daily_ceiling_exceeded', { 'retry-after': '3600' }));
    const error = await client.get('/signups').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({ status: 429, code: 'daily_ceiling_exceeded', retryAfter: 3600 });
    expect(waits).toEqual([]);
  });

  it('backs off with jitter on 5xx, doubling the ceiling, and gives up after maxRetries', async () => {
    server.answer(problem(500, 'internal_error'), problem(502, 'upstream_unavailable'), problem(500, 'internal_error'));
    const error = await client.get('/signups').catch((e: unknown) => e);
    expect(isProblem(error, 'internal_error')).toBe(true);
    // random() = 0.5 below ceilings of 500 and 1000 ms.
    expect(waits).toEqual([250, 500]);
    expect(server.seen).toHaveLength(3);
  });

  it('caps the backoff at maxDelayMs', async () => {
    const capped = createClient({
      baseUrl: server.url,
      sleep: async (ms) => {
        waits.push(ms);
      },
      random: () => 0.999,
      retry: { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 1500 },
    });
    server.answer(problem(500, 'internal_error'), problem(500, 'internal_error'), problem(500, 'internal_error'), json(200, SIGNUP));
    await capped.get('/signups/{id}', { params: { id: 'a1' } });
    expect(waits).toEqual([999, 1498, 1498]);
  });

  it('sends a read again after a network error', async () => {
    server.answer(hangUp, json(200, SIGNUP));
    expect(await client.get('/signups/{id}', { params: { id: 'a1' } })).toEqual(SIGNUP);
    expect(server.seen).toHaveLength(2);
    expect(waits).toEqual([250]);
  });

  it('sends one Idempotency-Key per mutation, the same on each of its retries', async () => {
    server.answer(hangUp, problem(503, 'upstream_unavailable', { 'retry-after': '1' }), json(201, SIGNUP), json(201, SIGNUP));
    await client.post('/signups/{id}/publish', { params: { id: 'a1' } });
    await client.post('/signups/{id}/publish', { params: { id: 'a1' } });
    const keys = server.seen.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys).toEqual([keys[0], keys[0], keys[0], expect.any(String)]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('sends the Idempotency-Key given, and on PATCH and DELETE too', async () => {
    server.answer(problem(502, 'upstream_unavailable'), json(200, SIGNUP), json(200, SIGNUP));
    await client.patch('/signups/{id}', { params: { id: 'a1' }, body: { title: 'Renamed' }, idempotencyKey: 'my-key-1' });
    await client.delete('/signups/{id}', { params: { id: 'a1' } });
    expect(server.seen.map((r) => [r.method, r.headers['idempotency-key']])).toEqual([
      ['PATCH', 'my-key-1'],
      ['PATCH', 'my-key-1'],
      ['DELETE', expect.any(String)],
    ]);
    expect(server.seen.every((r) => r.method === 'GET' || r.headers['idempotency-key'])).toBe(true);
  });

  it('waits for a request in progress with the same key (409 idempotency_in_progress) and gets its answer', async () => {
    server.answer(problem(409, 'idempotency_in_progress', { 'retry-after': '1' }), json(201, SIGNUP));
    expect(await client.post('/signups/{id}/close', { params: { id: 'a1' } })).toEqual(SIGNUP);
    expect(waits).toEqual([1000]);
  });

  it('never sends a mutation without Idempotency-Key twice on 5xx or a network error', async () => {
    server.answer(problem(500, 'internal_error'), hangUp);
    const failed = await client.post('/signups/{id}/close', { params: { id: 'a1' }, idempotencyKey: false }).catch((e: unknown) => e);
    expect(isProblem(failed, 'internal_error')).toBe(true);
    await expect(client.post('/signups/{id}/close', { params: { id: 'a1' }, idempotencyKey: false })).rejects.toThrow();
    expect(server.seen.map((r) => r.headers['idempotency-key'])).toEqual([undefined, undefined]);
    expect(waits).toEqual([]);
  });

  it('waits as told on a 409 with Retry-After (an event-log position not settled yet), and not on a plain 409', async () => {
    server.answer(problem(409, 'conflict', { 'retry-after': '1' }), json(200, { data: [], nextCursor: null }), problem(409, 'conflict'));
    expect(await client.get('/events', { query: { after: 'e1' } })).toEqual({ data: [], nextCursor: null });
    expect(waits).toEqual([1000]);
    await expect(client.post('/signups/{id}/close', { params: { id: 'a1' } })).rejects.toMatchObject({ code: 'conflict' });
    expect(server.seen).toHaveLength(3);
  });

  it('does not send a mutation again after a 500, even with its key: the work may have committed after all', async () => {
    server.answer(problem(500, 'internal_error'), problem(500, 'internal_error'), json(200, SIGNUP));
    const failed = await client.post('/signups/{id}/publish', { params: { id: 'a1' } }).catch((e: unknown) => e);
    expect(isProblem(failed, 'internal_error')).toBe(true);
    expect(await client.get('/signups/{id}', { params: { id: 'a1' } })).toEqual(SIGNUP);
    expect(server.seen.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
  });

  it('follows no redirect, so the credential goes nowhere else', async () => {
    server.answer((_req, res) => res.writeHead(307, { location: '/elsewhere' }).end(), json(200, SIGNUP));
    const error = await client.get('/signups', { retry: false }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'UnexpectedResponseError', status: 307 });
    expect(server.seen.map((r) => r.url)).toEqual(['/api/v1/signups']);
  });

  it('lets a caller header replace the client’s own whatever its case, never joining them', async () => {
    server.answer(json(200, SIGNUP));
    await client.post('/signups/{id}/close', { params: { id: 'a1' }, headers: { 'Idempotency-Key': 'mine', Accept: 'application/json' } });
    expect([server.seen[0]!.headers['idempotency-key'], server.seen[0]!.headers.accept]).toEqual(['mine', 'application/json']);
  });

  it('stops paging with an UnexpectedPageError when a list answers the cursor it was given', async () => {
    server.answer(json(200, { data: [{ id: 's1' }], nextCursor: 'c1' }), json(200, { data: [{ id: 's2' }], nextCursor: 'c1' }));
    const ids: string[] = [];
    const error = await (async () => {
      for await (const signup of client.paginate('/signups')) ids.push(signup.id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedPageError);
    expect(ids).toEqual(['s1', 's2']);
    expect(server.seen).toHaveLength(2);
  });

  it('sends again a mutation without key refused by the rate limit (429: nothing ran)', async () => {
    server.answer(problem(429, 'rate_limited', { 'retry-after': '3' }), json(201, SIGNUP));
    expect(await client.post('/signups/{id}/close', { params: { id: 'a1' }, idempotencyKey: false })).toEqual(SIGNUP);
    expect(waits).toEqual([3000]);
  });

  it('does not retry with retry: false, nor 4xx answers', async () => {
    server.answer(problem(503, 'upstream_unavailable', { 'retry-after': '1' }), problem(404, 'not_found'));
    await expect(client.get('/signups', { retry: false })).rejects.toMatchObject({ code: 'upstream_unavailable' });
    await expect(client.get('/signups/{id}', { params: { id: 'a1' } })).rejects.toMatchObject({ code: 'not_found', status: 404 });
    expect(server.seen).toHaveLength(2);
    expect(waits).toEqual([]);
  });

  it('throws a problem as a ProblemError with its code, fields, request id and Retry-After, narrowed by code', async () => {
    server.answer(
      problem(
        422,
        'validation_failed',
        {},
        {
          title: 'Validation failed',
          detail: 'The body is invalid',
          errors: [{ path: 'title', message: 'Required' }],
          instance: 'urn:request:req-1',
        },
      ),
    );
    const error = await client.post('/signups', { body: {} as never }).catch((e: unknown) => e);
    if (!(error instanceof ProblemError)) throw new Error('expected a ProblemError');
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      title: 'Validation failed',
      detail: 'The body is invalid',
      errors: [{ path: 'title', message: 'Required' }],
      requestId: 'req-1',
      retryAfter: undefined,
      message: 'Validation failed: The body is invalid',
    });
    expect(error.is('validation_failed') && error.errors.map((e) => e.path)).toEqual(['title']);
    expect(isProblem(error, 'not_found', 'validation_failed')).toBe(true);
    expect(isProblem(error, 'not_found')).toBe(false);
  });

  it('throws an answer that is not problem+json as an UnexpectedResponseError', async () => {
    server.answer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'));
    const error = await client.get('/signups', { retry: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 502, body: '<h1>Bad gateway</h1>' });
  });

  it('pages through a list with the cursor, keeping the other query parameters', async () => {
    const page = (ids: string[], nextCursor: string | null) => json(200, { data: ids.map((id) => ({ id })), nextCursor });
    server.answer(page(['s1', 's2'], 'c1'), page(['s3', 's4'], 'c2'), page(['s5'], null));
    const ids: string[] = [];
    for await (const signup of client.paginate('/signups', { query: { limit: 2, status: 'published' } })) ids.push(signup.id);
    expect(ids).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(server.seen.map((r) => r.url)).toEqual([
      '/api/v1/signups?limit=2&status=published',
      '/api/v1/signups?limit=2&status=published&cursor=c1',
      '/api/v1/signups?limit=2&status=published&cursor=c2',
    ]);
  });

  it("sends the event log's after and order again beside the cursor, like any other filter", async () => {
    const page = (ids: string[], nextCursor: string | null) => json(200, { data: ids.map((id) => ({ id })), nextCursor });
    server.answer(page(['e2', 'e3'], 'c1'), page(['e4'], null), page(['e1'], 'c2'), page([], null));
    const ids: string[] = [];
    for await (const event of client.paginate('/events', { query: { after: 'e1', limit: 2, type: 'signup.created' } })) ids.push(event.id);
    for await (const event of client.paginate('/events', { query: { order: 'asc', limit: 1 } })) ids.push(event.id);
    expect(ids).toEqual(['e2', 'e3', 'e4', 'e1']);
    expect(server.seen.map((r) => r.url)).toEqual([
      '/api/v1/events?after=e1&limit=2&type=signup.created',
      '/api/v1/events?after=e1&limit=2&type=signup.created&cursor=c1',
      '/api/v1/events?order=asc&limit=1',
      '/api/v1/events?order=asc&limit=1&cursor=c2',
    ]);
  });

  it('gives whole pages from a remembered cursor, and stops when the caller does', async () => {
    server.answer(json(200, { data: [{ id: 'p3' }], nextCursor: 'c4' }));
    const pages = client.pages('/signups/{id}/participants', { params: { id: 'a1' }, query: { cursor: 'c3' } });
    for await (const page of pages) {
      expect(page).toEqual({ data: [{ id: 'p3' }], nextCursor: 'c4' });
      break;
    }
    expect(server.seen.map((r) => r.url)).toEqual(['/api/v1/signups/a1/participants?cursor=c3']);
  });

  it('passes conditional and custom headers, and answers a 304 through request()', async () => {
    server.answer((_req, res) => res.writeHead(304, { etag: '"v1"' }).end(), json(200, SIGNUP));
    const unchanged = await client.request('get', '/signups/{id}', { params: { id: 'a1' }, ifNoneMatch: '"v1"' });
    expect(unchanged).toMatchObject({ status: 304, data: undefined });
    expect(unchanged.headers.get('etag')).toBe('"v1"');
    await client.patch('/signups/{id}', { params: { id: 'a1' }, body: { title: 'New' }, ifMatch: '"v1"', headers: { 'x-trace': 't1' } });
    expect(server.seen.map((r) => [r.headers['if-none-match'], r.headers['if-match'], r.headers['x-trace']])).toEqual([
      ['"v1"', undefined, undefined],
      [undefined, '"v1"', 't1'],
    ]);
  });

  it('refuses a call missing a path parameter before sending it', async () => {
    // @ts-expect-error the path parameter id is required
    await expect(client.get('/signups/{id}', { params: {} })).rejects.toThrow('Missing path parameter id');
    expect(server.seen).toEqual([]);
  });
});
