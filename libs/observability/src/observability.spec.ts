import { Writable } from 'node:stream';
import { checkReadiness } from './health.js';
import { loggablePath } from './http-hooks.js';
import { createLogger } from './logger.js';
import { Metrics } from './metrics.js';
import { acceptRequestId, currentRequestId, runWithRequestId } from './request-context.js';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  return { lines, stream };
}

describe('logger', () => {
  it('puts the request id on every line written inside a request', () => {
    const { lines, stream } = capture();
    const logger = createLogger('test', 'info', stream);
    runWithRequestId('req-42', () => logger.info('inside'));
    logger.info('outside');
    expect(lines[0]).toMatchObject({ app: 'test', requestId: 'req-42', msg: 'inside' });
    expect(lines[1]).not.toHaveProperty('requestId');
  });

  it('redacts secrets at any depth and in any case', () => {
    const { lines, stream } = capture();
    const logger = createLogger('test', 'info', stream);
    logger.info(
      {
        headers: { Authorization: 'Bearer sgn_test_abc' },
        req: { body: { password: 'hunter2', nested: { deeper: { token: 'oat_xyz' } } } },
        list: [{ key: 'sgn_live_x' }],
        keep: { title: 'Potluck' },
      },
      'x',
    );
    const text = JSON.stringify(lines[0]);
    for (const secret of ['sgn_test_abc', 'hunter2', 'oat_xyz', 'sgn_live_x']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ keep: { title: 'Potluck' }, headers: { Authorization: '[redacted]' } });
  });
});

describe('logged errors', () => {
  it('never carry the statement or the values a failed query was given', () => {
    const { lines, stream } = capture();
    const logger = createLogger('test', 'info', stream);
    const err = Object.assign(new Error('duplicate key value'), {
      query: 'INSERT INTO participants (name, email) VALUES ($1, $2)',
      parameters: ['Ana Lima', 'ana@example.com'],
      driverError: { detail: 'Key (email)=(ana@example.com) already exists.' },
      // TypeORM's QueryFailedError copies the driver's fields onto itself.
      detail: 'Failing row contains (Ana Lima, ana@example.com).',
      where: 'PL/pgSQL function refuse(ana@example.com)',
    });
    logger.error({ err }, 'failed');
    const text = JSON.stringify(lines[0]);
    expect(text).toContain('duplicate key value');
    expect(text).not.toContain('ana@example.com');
    expect(text).not.toContain('Ana Lima');
  });
});

describe('request ids', () => {
  it('echoes a safe incoming id and replaces an unsafe one', () => {
    expect(acceptRequestId('abc-123')).toBe('abc-123');
    expect(acceptRequestId('bad id\n')).toMatch(/^[0-9a-f-]{36}$/);
    expect(acceptRequestId(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is visible across awaits within the request', async () => {
    await runWithRequestId('r1', async () => {
      await new Promise((r) => setTimeout(r, 1));
      expect(currentRequestId()).toBe('r1');
    });
  });
});

describe('readiness', () => {
  it('reports each dependency and fails when one is down', async () => {
    const report = await checkReadiness([
      { name: 'postgres', check: async () => undefined },
      {
        name: 'nats',
        check: async () => {
          throw new Error('connection refused');
        },
      },
    ]);
    expect(report).toEqual({
      status: 'unavailable',
      checks: { postgres: { status: 'up' }, nats: { status: 'down', error: 'connection refused' } },
    });
  });
});

describe('metrics', () => {
  it('declares a counter once per name, labelled with the app, and renders what it counted', async () => {
    const metrics = new Metrics('mcp-server', { defaultMetrics: false });
    const calls = metrics.counter('tool_calls_total', 'Tool calls by tool and outcome', ['tool', 'outcome']);
    calls.inc({ tool: 'whoami', outcome: 'ok' });
    metrics.counter('tool_calls_total', 'Tool calls by tool and outcome', ['tool', 'outcome']).inc({ tool: 'whoami', outcome: 'ok' });
    expect(await metrics.render()).toContain('tool_calls_total{tool="whoami",outcome="ok",app="mcp-server"} 2');
  });

  it('declares a scrape-time gauge once per name, and a read that fails drops its values and is reported', async () => {
    const metrics = new Metrics('signups-service', { defaultMetrics: false });
    const errors: unknown[] = [];
    let fail = false;
    const collect = async (g: { set(value: number): void }) => {
      if (fail) throw new Error('database down');
      g.set(7);
    };
    const gauge = metrics.gauge(
      'backlog_events',
      'Backlog',
      ['schema'],
      async (g) => collect({ set: (value) => g.set({ schema: 'signups' }, value) }),
      (err) => errors.push(err),
    );
    expect(metrics.gauge('backlog_events', 'Backlog', ['schema'], collect, (err) => errors.push(err))).toBe(gauge);
    expect(await metrics.render()).toContain('backlog_events{schema="signups",app="signups-service"} 7');
    fail = true;
    expect(await metrics.render()).not.toContain('backlog_events{');
    expect(errors).toEqual([new Error('database down')]);
  });

  it('renders Prometheus text labelled with the app', async () => {
    const metrics = new Metrics('signups-service', { defaultMetrics: false });
    metrics.httpDuration.observe({ method: 'GET', route: '/x', status: '200' }, 0.01);
    const text = await metrics.render();
    expect(text).toContain('http_request_duration_seconds_count{app="signups-service",method="GET",route="/x",status="200"} 1');
  });
});

describe('loggablePath', () => {
  it('drops the query and redacts tokens carried in the path', () => {
    expect(loggablePath('/r/cnf_AbC123xyz/cancel?x=1')).toBe('/r/cnf_[redacted]/cancel');
    expect(loggablePath('/api/v1/registrations/cnf_q9')).toBe('/api/v1/registrations/cnf_[redacted]');
    expect(loggablePath('/api/v1/signups/0190a0b2-7a3c-7def-8a12-1234567890ab')).toBe(
      '/api/v1/signups/0190a0b2-7a3c-7def-8a12-1234567890ab',
    );
    expect(loggablePath('/r/cnf%5FAbC123')).toBe('/r/cnf_[redacted]');
    expect(loggablePath('/calendars/cal_AbC123xyz.ics')).toBe('/calendars/cal_[redacted].ics');
    expect(loggablePath('/r/cnf_AbC123xyz/calendar.ics')).toBe('/r/cnf_[redacted]/calendar.ics');
    expect(loggablePath('/calendars/pcal_AbC-123_xyz.ics')).toBe('/calendars/pcal_[redacted].ics');
    expect(loggablePath('/api/v1/registrations/%63nf_AbC123')).toBe('/api/v1/registrations/cnf_[redacted]');
    expect(loggablePath('/r/%E0%A4%A')).toBe('[undecodable path]');
    expect(loggablePath(`/account/reset-password/${'x'.repeat(43)}`)).toBe('/account/reset-password/[redacted]');
    expect(loggablePath(`/account/verify/${'A_-'.repeat(14)}?next=1`)).toBe('/account/verify/[redacted]');
    expect(loggablePath('/unsubscribe/v1.abc.def.ghi')).toBe('/unsubscribe/[redacted]');
  });
});
