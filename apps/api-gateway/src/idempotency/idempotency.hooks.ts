import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '#libs/observability';
import type { IdempotentHttpRequest } from './idempotency.interceptor.js';
import type { IdempotencyStore } from './idempotency.store.js';

export const REPLAYED_HEADER = 'idempotent-replayed';

/** Headers of this one exchange, never part of a stored answer: a replay gets its own. */
const PER_RESPONSE =
  /^(?:x-request-id|date|connection|keep-alive|transfer-encoding|content-length|retry-after|ratelimit.*|x-ratelimit-.*)$/i;

function storableHeaders(reply: FastifyReply): Record<string, string> {
  return Object.fromEntries(
    Object.entries(reply.getHeaders())
      .filter(([name, value]) => value !== undefined && !PER_RESPONSE.test(name))
      .map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]),
  );
}

/**
 * Settles what the idempotency interceptor began, as the answer leaves: a replay is sent with
 * its stored status, headers and body and `Idempotent-Replayed: true`; an executed request's
 * answer is stored, unless it is a 5xx or a 429 (nothing to keep: a retry with the key runs again).
 */
export function settleIdempotentResponses(fastify: FastifyInstance, store: IdempotencyStore, logger: Logger): void {
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const mark = (request as unknown as IdempotentHttpRequest).idempotency;
    if (!mark) return payload;
    if ('replay' in mark) {
      const { status, headers, body } = mark.replay;
      reply.code(status).headers(headers).header(REPLAYED_HEADER, 'true');
      return body === '' ? null : body;
    }
    const status = reply.statusCode;
    const body =
      payload === null || payload === undefined
        ? ''
        : typeof payload === 'string'
          ? payload
          : Buffer.isBuffer(payload)
            ? payload.toString('utf8')
            : undefined;
    try {
      if (status >= 500 || status === 429 || body === undefined) await store.release(mark.claim);
      else await store.complete(mark.claim, { status, headers: storableHeaders(reply), body });
    } catch (err) {
      logger.error({ err, method: request.method, url: request.url }, 'could not settle an idempotency record');
    }
    return payload;
  });
}
