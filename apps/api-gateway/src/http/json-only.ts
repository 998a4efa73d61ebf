import type { FastifyInstance } from 'fastify';
import { ProblemError, sendProblem } from '#libs/problem';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** application/json or a +json type; anchored at the start, so one pass over the header at most. */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;

/** Whether a Content-Type header names JSON. */
export function isJsonContentType(type: string | undefined): boolean {
  return JSON_TYPE.test(type ?? '');
}

/**
 * The REST API reads JSON only: a body of any other content type under the prefix is a 422 on
 * `body` (the HTML pages, outside the prefix, post forms).
 */
export function acceptJsonOnly(fastify: FastifyInstance, prefix: string, problemBase: string): void {
  fastify.addHook('preValidation', (request, reply, done) => {
    const type = request.headers['content-type'];
    const hasBody = request.body !== undefined && request.body !== null;
    if (BODY_METHODS.has(request.method) && hasBody && request.url.startsWith(prefix) && !isJsonContentType(type)) {
      sendProblem(
        reply,
        ProblemError.validation([{ path: 'body', message: 'Content-Type must be application/json' }]),
        problemBase,
        request.id,
      );
      return;
    }
    done();
  });
}
