import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, ParentBasedSampler } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { ConfigOf, tracingSpec } from '#libs/config';
import { withDeadline } from './deadline.js';

export { SpanKind, type Span };

export type TracingConfig = ConfigOf<typeof tracingSpec>;

/** How long shutdown waits for the last spans to reach the collector: a dead collector never holds up an exit. */
const FLUSH_TIMEOUT_MS = 2000;

let started = false;

export interface Tracing {
  /** True when spans leave the process (an OTLP endpoint is configured). */
  readonly exporting: boolean;
  /** Sends the spans still buffered (for at most 2 s), then unregisters the tracer and the propagation. */
  shutdown(): Promise<void>;
}

/**
 * Registers the process's tracer (once per process): W3C trace context propagation always (the
 * traceparent and tracestate headers only: a caller's baggage is not carried), and an OTLP/HTTP
 * exporter (protobuf or JSON) when the configuration gives it an endpoint (the traces endpoint
 * as is, or the general one with /v1/traces). The exporter reads its other OTEL_EXPORTER_OTLP_*
 * settings (headers, timeout, compression) from the environment itself.
 */
export function startTracing(service: string, config: TracingConfig): Tracing {
  if (started) throw new Error('Tracing is already started in this process');
  started = true;
  const url = config.tracesEndpoint ?? (config.endpoint && `${config.endpoint.replace(/\/+$/, '')}/v1/traces`);
  const exporting = !config.sdkDisabled && config.tracesExporter === 'otlp' && url !== undefined;
  const protocol = config.tracesProtocol ?? config.protocol;
  const exporter = exporting ? (protocol === 'http/json' ? new OtlpJsonExporter({ url }) : new OtlpProtobufExporter({ url })) : undefined;
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': service, 'service.namespace': 'signup-platform' }))
    .merge(detectResources({ detectors: [envDetector] }))
    .merge(config.serviceName === undefined ? null : resourceFromAttributes({ 'service.name': config.serviceName }));
  // Without an exporter, traces this app starts are not recorded (recording spans only to drop
  // them was a measurable part of each request), yet every span has its ids (logs carry the
  // trace id); a caller's sampled trace goes on sampled, so apps that export still get it.
  const provider = new NodeTracerProvider(
    exporter
      ? { resource, spanProcessors: [new BatchSpanProcessor(exporter)] }
      : { resource, sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) },
  );
  provider.register({ propagator: new W3CTraceContextPropagator() });
  return {
    exporting,
    async shutdown() {
      await withDeadline(provider.shutdown(), FLUSH_TIMEOUT_MS).catch(() => undefined);
      trace.disable();
      propagation.disable();
      context.disable();
      started = false;
    },
  };
}

/** The registered tracer (looked up on each use: tests start and shut down tracing more than once). */
function tracer() {
  return trace.getTracer('signup-platform');
}

/** A failure worth a red span: anything but a problem below 500 (a 404 is an answer, not a fault). */
function isFault(err: unknown): boolean {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status !== 'number' || status >= 500;
}

/** Marks a span as failed. */
export function failSpan(span: Span, err?: unknown): void {
  if (err instanceof Error) span.recordException(err);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * Runs `work` in a new span, active for its duration, under `parent` (default: the active
 * context); ends it, and marks it failed when `work` throws a fault.
 */
export function inSpan<T>(
  name: string,
  options: { kind: SpanKind; attributes?: Attributes },
  work: (span: Span) => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  return tracer().startActiveSpan(name, options, parent, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      if (isFault(err)) failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** A span that the caller ends (for work spread over callbacks, such as an HTTP request's hooks). */
export function startSpan(name: string, options: { kind: SpanKind; attributes?: Attributes }, parent: Context): Span {
  return tracer().startSpan(name, options, parent);
}

/** `parent` with `span` as its active span. */
export function withSpan(parent: Context, span: Span): Context {
  return trace.setSpan(parent, span);
}

export function runInContext<T>(ctx: Context, work: () => T): T {
  return context.with(ctx, work);
}

/** The W3C trace context (traceparent, tracestate) of the active span, as headers to send along. */
export function traceContextHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The context a caller sent in its traceparent and tracestate headers (the root context without them). */
export function contextFromHeaders(get: (name: string) => string | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, get, { get: (read, key) => read(key), keys: () => ['traceparent', 'tracestate'] });
}

/** The trace id of a span, when it belongs to a trace (not when tracing is off). */
export function traceIdOf(span: Span | undefined): string | undefined {
  const spanContext = span?.spanContext();
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

/** The trace id of the active span, for log lines. */
export function currentTraceId(): string | undefined {
  return traceIdOf(trace.getActiveSpan());
}
