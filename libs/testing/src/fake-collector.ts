import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readBody } from './http-body.js';

/** A span as an OpenTelemetry collector received it over OTLP/HTTP JSON. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** The resource's service.name. */
  service: string;
  attributes: Record<string, unknown>;
}

export interface FakeCollector {
  /** `http://127.0.0.1:PORT`: the OTEL_EXPORTER_OTLP_ENDPOINT (spans arrive at /v1/traces). */
  url: string;
  spans: ReceivedSpan[];
  /** The content type of every export received (JSON exports are decoded into `spans`). */
  exports: string[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[];
    }[];
  }[];
}

function attributesOf(list: OtlpAttribute[] = []): Record<string, unknown> {
  return Object.fromEntries(
    list.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]),
  );
}

function spansOf(body: OtlpExport): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap(({ resource, scopeSpans = [] }) => {
    const service = String(attributesOf(resource?.attributes)['service.name']);
    return scopeSpans.flatMap(({ spans = [] }) =>
      spans.map(({ traceId, spanId, parentSpanId, name, kind, attributes }) => ({
        traceId,
        spanId,
        ...(parentSpanId && { parentSpanId }),
        name,
        kind,
        service,
        attributes: attributesOf(attributes),
      })),
    );
  });
}

/**
 * An OpenTelemetry collector on 127.0.0.1 (the third party that receives our traces): takes
 * OTLP/HTTP exports at POST /v1/traces, decodes JSON ones, and answers GET /spans?traceId=…
 * with the spans of one trace (for tests in other processes).
 */
export async function startFakeCollector(): Promise<FakeCollector> {
  const spans: ReceivedSpan[] = [];
  const exports: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://collector');
    if (req.method === 'GET' && url.pathname === '/spans') {
      const traceId = url.searchParams.get('traceId');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(spans.filter((span) => span.traceId === traceId)));
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/traces') return void res.writeHead(404).end();
    readBody(req).then(
      (bytes) => {
        const contentType = req.headers['content-type'] ?? '';
        exports.push(contentType);
        const json = contentType.startsWith('application/json');
        try {
          if (json) spans.push(...spansOf(JSON.parse(bytes.toString('utf8')) as OtlpExport));
        } catch {
          return void res.writeHead(400).end();
        }
        res.writeHead(200, { 'content-type': contentType }).end(json ? '{}' : undefined);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    spans,
    exports,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
