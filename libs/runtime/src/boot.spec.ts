import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { InProcessBus } from '#libs/bus';
import { createLogger } from '#libs/observability';
import { ProblemError } from '#libs/problem';
import { subjectsOf, type HandlersOf } from '#libs/contracts';
import { Auth } from '#libs/scopes';
import { bootApp, type RunningApp } from './boot.js';
import type { Infrastructure } from './infrastructure.js';

@Controller('things')
class ThingsController {
  @Get('boom') @Auth.public() boom(): never { throw new Error('relation "secret_table" does not exist'); }
  @Get('gone') @Auth.public() gone(): never { throw new ProblemError('not_found', 'No such thing.'); }
  @Get('by/:id') @Auth.public() byId(): object { return {}; }
  @Get('undeclared') undeclared(): object { return { leaked: true }; }
  @Post() @Auth.public() create(@Body() body: unknown) { return { got: body }; }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('bootApp', () => {
  let running: RunningApp;
  const bus = new InProcessBus(createLogger('test', 'silent'));

  beforeAll(async () => {
    const infrastructure: Infrastructure = {
      env: { SIGNUPS_SERVICE_PORT: '0', PROBLEM_BASE: 'http://problems.test/problems' },
      logLevel: 'silent',
      bus,
      dataSource: () => { throw new Error('no database in this test'); },
      close: () => bus.close(),
    };
    running = await bootApp({ name: 'signups-service', module: () => ({ module: ThingsModule }) }, infrastructure);
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

  it('counts and times every bus request the app serves, by outcome', async () => {
    const handlers = Object.fromEntries(
      subjectsOf('signups').map((subject) => [subject, async () => { throw new ProblemError('not_found'); }]),
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
    const long = await fetch(`${running.url}/things/by/${'a'.repeat(600)}`);
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
