import { request } from './support/api.js';
import { stackInfo } from './support/stack-env.js';

const APPS_WITH_DATABASE = ['api-gateway', 'auth-server', 'signups-service', 'webhooks-dispatcher', 'reminders-service'];

describe('operations surface of every app', () => {
  const apps = Object.entries(stackInfo().internalUrls);

  it.each(apps)('%s answers /healthz', async (_app, url) => {
    const res = await request(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it.each(apps)('%s answers /readyz after checking its dependencies', async (app, url) => {
    const res = await request<{ status: string; checks: Record<string, { status: string }> }>(`${url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.checks.bus).toEqual({ status: 'up' });
    if (APPS_WITH_DATABASE.includes(app) && app !== 'api-gateway') expect(res.body.checks.postgres).toEqual({ status: 'up' });
  });

  it.each(apps)('%s keeps an idle connection open for HTTP_KEEP_ALIVE_TIMEOUT_MS (65 s) and announces it', async (_app, url) => {
    const res = await fetch(`${url}/healthz`);
    expect(res.headers.get('keep-alive')).toBe('timeout=65');
  });

  it.each(apps)('%s serves Prometheus metrics', async (app, url) => {
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toContain(`app="${app}"`);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it.each([
    ['auth-server', 'auth'],
    ['signups-service', 'signups'],
    ['webhooks-dispatcher', 'webhooks'],
    ['reminders-service', 'reminders'],
  ])('%s reports the lag of its outbox in schema %s', async (app, schema) => {
    const text = await (await fetch(`${stackInfo().internalUrls[app]}/metrics`)).text();
    expect(text).toMatch(new RegExp(`^outbox_pending_events\\{schema="${schema}",app="${app}"\\} \\d+$`, 'm'));
    expect(text).toMatch(new RegExp(`^outbox_oldest_pending_seconds\\{schema="${schema}",app="${app}"\\} [\\d.]+$`, 'm'));
  });

  it.each([
    ['signups-service', 'signups-reminded'],
    ['webhooks-dispatcher', 'webhooks-fan-out'],
    ['reminders-service', 'reminders-contacts'],
    ['reminders-service', 'reminders-mail'],
  ])('%s reports the lag of its durable consumer %s', async (app, consumer) => {
    const text = await (await fetch(`${stackInfo().internalUrls[app]}/metrics`)).text();
    for (const name of ['event_consumer_pending_messages', 'event_consumer_unacknowledged_messages']) {
      expect(text).toMatch(new RegExp(`^${name}\\{consumer="${consumer}",app="${app}"\\} \\d+$`, 'm'));
    }
  });

  it('echoes a caller request id and makes one otherwise', async () => {
    const echoed = await fetch(`${stackInfo().baseUrl}/me`, { headers: { 'x-request-id': 'e2e-trace-1' } });
    expect(echoed.headers.get('x-request-id')).toBe('e2e-trace-1');
    const made = await fetch(`${stackInfo().baseUrl}/me`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves a human page at every problem type URI', async () => {
    const res = await fetch(`${stackInfo().problemBase}/scope-required`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('scope_required');
  });

  it('serves OpenAPI 3.1 and a docs page', async () => {
    const doc = await request<{ openapi: string; paths: Record<string, unknown> }>(`${stackInfo().baseUrl}/openapi.json`);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/me',
        '/api/v1/orgs/{id}',
        '/api/v1/signups',
        '/api/v1/signups/{id}',
        '/api/v1/signups/{id}/publish',
        '/api/v1/signups/{id}/close',
      ]),
    );
    expect((await fetch(`${stackInfo().baseUrl}/docs`)).status).toBe(200);
  });

  it('declares the request id and rate limit fields on every response, Retry-After on 429, Idempotent-Replayed on mutations', async () => {
    type Response = { headers?: Record<string, { $ref: string }> };
    const doc = (
      await request<{ paths: Record<string, Record<string, { responses: Record<string, Response> }>>; components: { headers: object } }>(
        `${stackInfo().baseUrl}/openapi.json`,
      )
    ).body;
    expect(Object.keys(doc.components.headers)).toEqual(
      expect.arrayContaining(['X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'Retry-After', 'Idempotent-Replayed']),
    );
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const expected = [
            'X-Request-Id',
            'RateLimit-Policy',
            'RateLimit',
            'X-RateLimit-Limit',
            'X-RateLimit-Remaining',
            'X-RateLimit-Reset',
          ];
          if (status === '429') expected.push('Retry-After');
          if (['post', 'patch', 'delete'].includes(method) && /^[234]/.test(status) && status !== '429')
            expected.push('Idempotent-Replayed');
          const absent = expected.filter((name) => response.headers?.[name]?.$ref !== `#/components/headers/${name}`);
          if (absent.length > 0) missing.push(`${method.toUpperCase()} ${path} ${status}: ${absent.join(', ')}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('answers an unknown route with a 404 problem', async () => {
    const res = await request(`${stackInfo().baseUrl}/definitely/not/here`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ code: 'not_found' });
  });
});
