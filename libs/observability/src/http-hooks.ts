import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';
import { REQUEST_ID_HEADER, acceptRequestId, runWithRequestId } from './request-context.js';

const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** Secrets that travel in paths (confirmation tokens, keys, device codes) never reach a log line. */
const SECRET_IN_PATH = /\b(cnf|sgn_test|sgn_live|whsec|oat|ort|ac|dc)_[A-Za-z0-9_-]+/g;

/** The path without its query, decoded (so %63nf_… is recognised too), with secrets redacted. */
export function loggablePath(url: string): string {
  const path = url.split('?')[0]!;
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return '[undecodable path]';
  }
  return decoded.replace(SECRET_IN_PATH, '$1_[redacted]');
}

/** Fastify options that take the request id from X-Request-Id (or make one). */
export const requestIdOptions = {
  genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => acceptRequestId(req.headers[REQUEST_ID_HEADER]),
  requestIdHeader: false as const,
};

/**
 * Request id on the response and in the async context of the whole request, one log line per
 * request (health and metrics routes excluded), and the request duration histogram.
 */
export function installHttpObservability(fastify: FastifyInstance, logger: Logger, metrics: Metrics): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    runWithRequestId(request.id, done);
  });
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    if (!QUIET_ROUTES.has(route)) {
      logger.info(
        { requestId: request.id, method: request.method, route, url: loggablePath(request.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request completed',
      );
    }
    done();
  });
}
