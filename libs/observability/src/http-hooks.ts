import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { acceptRequestId, REQUEST_ID_HEADER, runWithRequestId } from './request-context.js';
import { contextFromHeaders, failSpan, runInContext, type Span, SpanKind, startSpan, traceIdOf, withSpan } from './tracing.js';

const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** Secrets that travel in paths (confirmation tokens, calendar tokens, keys, device codes) never reach a log line. */
const SECRET_IN_PATH = /\b(cnf|cal|pcal|sgn_test|sgn_live|whsec|oat|ort|ac|dc)_[A-Za-z0-9_-]+/g;
/** Routes whose last segment is a secret without a prefix: account links (verification, password reset) and unsubscribe tokens. */
const SECRET_SEGMENT = /\/(account\/verify|account\/reset-password|unsubscribe)\/[^/]+/g;

/** The path without its query, decoded (so %63nf_… is recognised too), with secrets redacted. */
export function loggablePath(url: string): string {
  const path = url.split('?')[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return '[undecodable path]';
  }
  return decoded.replace(SECRET_IN_PATH, '$1_[redacted]').replace(SECRET_SEGMENT, '/$1/[redacted]');
}

/** Fastify options that take the request id from X-Request-Id (or make one). */
export const requestIdOptions = {
  genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => acceptRequestId(req.headers[REQUEST_ID_HEADER]),
  requestIdHeader: false as const,
};

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Request id on the response and in the async context of the whole request, a server span
 * under the caller's traceparent, one log line per request and the request duration histogram
 * (health and metrics routes have neither span nor log line).
 */
export function installHttpObservability(fastify: FastifyInstance, logger: Logger, metrics: Metrics): void {
  const spans = new WeakMap<FastifyRequest, Span>();
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    const route = request.routeOptions.url;
    if (route !== undefined && QUIET_ROUTES.has(route)) return runWithRequestId(request.id, done);
    const parent = contextFromHeaders((name) => headerValue(request, name));
    const attributes = {
      'http.request.method': request.method,
      'url.path': loggablePath(request.url),
      ...(route !== undefined && { 'http.route': route }),
    };
    const span = startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      { kind: SpanKind.SERVER, attributes },
      parent,
    );
    spans.set(request, span);
    runInContext(withSpan(parent, span), () => runWithRequestId(request.id, done));
  });
  fastify.addHook('onRequestAbort', (request: FastifyRequest, done: () => void) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute('error.type', 'aborted');
      span.end();
      spans.delete(request);
    }
    done();
  });
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const span = spans.get(request);
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) failSpan(span);
      span.end();
      spans.delete(request);
    }
    if (!QUIET_ROUTES.has(route)) {
      logger.info(
        {
          requestId: request.id,
          ...(traceIdOf(span) !== undefined && { traceId: traceIdOf(span) }),
          method: request.method,
          route,
          url: loggablePath(request.url),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request completed',
      );
    }
    done();
  });
}
