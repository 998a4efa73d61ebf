import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { fastify } from 'fastify';
import { ConfigError, type Env, loadConfig, tracingSpec } from '#libs/config';
import { installHttpObservability } from './http-hooks.js';
import { createLogger } from './logger.js';
import { Metrics } from './metrics.js';
import {
  contextFromHeaders,
  currentTraceId,
  inSpan,
  runInContext,
  SpanKind,
  startTracing,
  traceContextHeaders,
  type Tracing,
} from './tracing.js';

const CALLER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01`;
const server = { kind: SpanKind.SERVER };

let tracing: Tracing | undefined;

function start(env: Env): Tracing {
  tracing = startTracing('tracing-test', loadConfig(tracingSpec, env));
  return tracing;
}

afterEach(async () => {
  await tracing?.shutdown();
  tracing = undefined;
});

/** Where OTLP exports land: the path and content type of each. */
async function otlpEndpoint(): Promise<{ url: string; received: string[]; bodies: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const bodies: string[] = [];
  const receiver: Server = createServer((req, res) => {
    received.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, received, bodies, close: () => new Promise((resolve) => receiver.close(() => resolve())) };
}

describe('startTracing', () => {
  it('exports nothing without an endpoint, yet continues the trace a caller sent and passes it on', async () => {
    expect(start({}).exporting).toBe(false);
    const caller = contextFromHeaders((name) => (name === 'traceparent' ? TRACEPARENT : undefined));
    const seen = await runInContext(caller, () =>
      inSpan('work', server, async () => ({ traceId: currentTraceId(), headers: traceContextHeaders() })),
    );
    expect(seen.traceId).toBe(CALLER_TRACE_ID);
    expect(seen.headers.traceparent).toMatch(new RegExp(`^00-${CALLER_TRACE_ID}-(?!${CALLER_SPAN_ID})[0-9a-f]{16}-01$`));
  });

  it('records nothing of the traces it starts without an endpoint, yet gives them ids for the logs', async () => {
    start({});
    const seen = await inSpan('work', server, async (span) => ({
      recording: span.isRecording(),
      traceId: currentTraceId(),
      headers: traceContextHeaders(),
    }));
    expect(seen.recording).toBe(false);
    expect(seen.traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
    expect(seen.headers.traceparent).toBe(`00-${seen.traceId}-${seen.headers.traceparent!.split('-')[2]}-00`);
  });

  it.each([
    ['http/protobuf by default', {}, 'application/x-protobuf'],
    ['http/json when OTEL_EXPORTER_OTLP_PROTOCOL says so', { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, 'application/json'],
    [
      'the traces protocol over the general one',
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' },
      'application/json',
    ],
  ])('exports spans over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces, %s', async (_, env, contentType) => {
    const endpoint = await otlpEndpoint();
    try {
      expect(start({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint.url, ...env }).exporting).toBe(true);
      await inSpan('work', server, async () => undefined);
      await tracing!.shutdown();
      tracing = undefined;
      expect(endpoint.received).toEqual([`POST /v1/traces ${contentType}`]);
    } finally {
      await endpoint.close();
    }
  });

  it.each([
    ['the app', {}, 'tracing-test'],
    ['OTEL_SERVICE_NAME', { OTEL_SERVICE_NAME: 'signups-eu' }, 'signups-eu'],
  ])('names the service after %s', async (_, env, name) => {
    const endpoint = await otlpEndpoint();
    try {
      start({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint.url}/custom/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', ...env });
      await inSpan('work', server, async () => undefined);
      await tracing!.shutdown();
      tracing = undefined;
      expect(endpoint.received).toEqual(['POST /custom/traces application/json']);
      expect(endpoint.bodies[0]).toContain(`{"key":"service.name","value":{"stringValue":"${name}"}}`);
    } finally {
      await endpoint.close();
    }
  });

  it.each([
    ['OTEL_SDK_DISABLED=true', { OTEL_SDK_DISABLED: 'true' }],
    ['OTEL_TRACES_EXPORTER=none', { OTEL_TRACES_EXPORTER: 'none' }],
  ])('exports nothing with %s', (_, env) => {
    expect(start({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', ...env }).exporting).toBe(false);
  });

  it('refuses to start twice in one process', () => {
    start({});
    expect(() => startTracing('again', loadConfig(tracingSpec, {}))).toThrow('already started');
  });

  it("passes on the trace context but never a caller's baggage", async () => {
    start({});
    const caller = contextFromHeaders((name) => ({ traceparent: TRACEPARENT, tracestate: 'vendor=1', baggage: 'user=ana' })[name]);
    const headers = await runInContext(caller, () => inSpan('work', server, async () => traceContextHeaders()));
    expect(Object.keys(headers).sort()).toEqual(['traceparent', 'tracestate']);
    expect(headers.tracestate).toBe('vendor=1');
  });

  it('refuses a protocol it cannot speak, naming the ones it can', () => {
    expect(() => loadConfig(tracingSpec, { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(ConfigError);
    expect(() => loadConfig(tracingSpec, { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf, http\/json/);
  });
});

describe('HTTP server spans', () => {
  async function app() {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        cb();
      },
    });
    const instance = fastify();
    installHttpObservability(
      instance,
      createLogger('tracing-test', 'info', stream),
      new Metrics('tracing-test', { defaultMetrics: false }),
    );
    instance.get('/work', async () => ({ traceId: currentTraceId() ?? null }));
    instance.get('/healthz', async () => ({ traceId: currentTraceId() ?? null }));
    const origin = await instance.listen({ port: 0, host: '127.0.0.1' });
    apps.push(instance);
    const get = async (path: string, headers: Record<string, string> = {}) =>
      (await fetch(`${origin}${path}`, { headers })).json() as Promise<{ traceId: string | null }>;
    return { get, lines };
  }

  const apps: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    for (const instance of apps.splice(0)) await instance.close();
  });

  beforeEach(() => start({}));

  it("continue the caller's traceparent, and the request's log line names the trace", async () => {
    const { get, lines } = await app();
    expect(await get('/work', { traceparent: TRACEPARENT })).toEqual({ traceId: CALLER_TRACE_ID });
    expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({ traceId: CALLER_TRACE_ID, route: '/work' });
  });

  it('start a trace of their own without a traceparent, or with a malformed one', async () => {
    const { get } = await app();
    for (const headers of [{}, { traceparent: 'not-a-trace' }] as Record<string, string>[]) {
      const { traceId } = await get('/work', headers);
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(traceId).not.toBe(CALLER_TRACE_ID);
    }
  });

  it('leave the health and metrics routes out of traces', async () => {
    const { get } = await app();
    expect(await get('/healthz', { traceparent: TRACEPARENT })).toEqual({ traceId: null });
  });
});

describe('HTTP server spans as exported', () => {
  interface ExportedSpan {
    name: string;
    kind: number;
    status?: { code?: number };
    attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
  }

  it('name the route, keep secrets out of the path, record the status, and mark server errors', async () => {
    const endpoint = await otlpEndpoint();
    const instance = fastify();
    try {
      start({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
      installHttpObservability(instance, createLogger('tracing-test', 'silent'), new Metrics('tracing-test', { defaultMetrics: false }));
      instance.get('/r/:token', async () => ({}));
      instance.get('/fail', async () => {
        throw new Error('boom');
      });
      const origin = await instance.listen({ port: 0, host: '127.0.0.1' });
      await fetch(`${origin}/r/cnf_SECRETtoken123`);
      await fetch(`${origin}/fail`);
      await tracing!.shutdown();
      tracing = undefined;
      const spans = endpoint.bodies.flatMap((body) =>
        (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
          r.scopeSpans.flatMap((scope) => scope.spans),
        ),
      );
      const summary = spans.map(({ name, kind, status, attributes }) => ({
        name,
        kind,
        error: status?.code === 2,
        ...Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue ?? Number(value.intValue)])),
      }));
      expect(summary).toEqual([
        {
          name: 'GET /r/:token',
          kind: 2,
          error: false,
          'http.request.method': 'GET',
          'http.route': '/r/:token',
          'url.path': '/r/cnf_[redacted]',
          'http.response.status_code': 200,
        },
        {
          name: 'GET /fail',
          kind: 2,
          error: true,
          'http.request.method': 'GET',
          'http.route': '/fail',
          'url.path': '/fail',
          'http.response.status_code': 500,
        },
      ]);
      expect(endpoint.bodies.join('')).not.toContain('SECRETtoken123');
    } finally {
      await instance.close();
      await endpoint.close();
    }
  });
});
