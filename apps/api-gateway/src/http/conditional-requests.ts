import {
  applyDecorators,
  type CallHandler,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { etagOfJson, IF_MATCH_HEADER, IF_NONE_MATCH_HEADER, noneMatchHolds, parseEntityTags } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { API_PREFIX } from '../openapi/openapi.js';
import { isJsonContentType } from './json-only.js';

const IF_MATCH_CHECKED = 'conditional:if-match';

/** The OpenAPI extension an If-Match route carries until the built document turns it into its header and 412 (declareConditionalRequests). */
export const IF_MATCH_EXTENSION = 'x-if-match';

interface ConditionalRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Set for a PATCH whose answer is the resource as its GET answers it: the answer is tagged like a read. */
  tagsAnswer?: boolean;
}

/**
 * Whose ETag a route's If-Match names: `resource`, the one the route's path answers on GET (a
 * PATCH answers it as the GET does, so its answer carries the new ETag); `signup`, the signup's
 * (GET /signups/{id}, whose representation holds its slots and items; the answer, a slot or an
 * item, is not tagged); `participant`, the participant's (GET
 * /signups/{id}/participants/{participantId}, whose representation holds its attendance and its
 * waitlist entries; a PATCH answers the participant as that GET does, so its answer carries the
 * new ETag); `registration`, the registration's (GET /registrations/{confirmationToken}, whose
 * representation holds the participant's waitlist entries).
 */
export type IfMatchTarget = 'resource' | 'signup' | 'participant' | 'registration';

/** Whether a PATCH of this target answers the representation its tag was taken from: then the answer is tagged like a read. */
export function tagsPatchAnswer(target: IfMatchTarget | undefined): boolean {
  return target === 'resource' || target === 'participant';
}

/**
 * A PATCH or DELETE whose owning service checks If-Match in the transaction that writes, with the
 * resource locked (requireIfMatch). Any other route refuses If-Match (ConditionalRequestsInterceptor).
 */
export function IfMatchChecked(target: IfMatchTarget = 'resource'): MethodDecorator {
  return applyDecorators(SetMetadata(IF_MATCH_CHECKED, target), ApiExtension(IF_MATCH_EXTENSION, target));
}

/** The request's If-Match as sent (validated by the interceptor), for the command to the owning service. */
export const IfMatch = createParamDecorator((_data: unknown, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<ConditionalRequest>().headers[IF_MATCH_HEADER];
  return Array.isArray(value) ? value.join(',') : value;
});

/**
 * If-Match and If-None-Match on every API route (after authentication and rate limits, before
 * Idempotency-Key): a malformed one is 422 validation_failed on the header. If-Match on a PATCH or
 * DELETE whose service does not check it is 412 precondition_failed: the route tags no
 * representation, so no tag can match (RFC 9110 §13.1.1), and nothing is changed on a condition
 * nobody evaluated. On a POST (an action or a creation, no representation to compare) it is
 * validated and ignored.
 */
@Injectable()
export class ConditionalRequestsInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<ConditionalRequest>();
    // The pages, feeds and mailbox outside the API prefix are not conditional: a proxy's header there is no caller's mistake.
    if (!request.url.startsWith(`/${API_PREFIX}/`)) return next.handle();
    const ifNoneMatch = parseEntityTags(request.headers[IF_NONE_MATCH_HEADER], 'If-None-Match');
    const ifMatch = parseEntityTags(request.headers[IF_MATCH_HEADER], 'If-Match');
    const target = this.reflector.get<IfMatchTarget | undefined>(IF_MATCH_CHECKED, context.getHandler());
    const replaces = request.method === 'PATCH' || request.method === 'DELETE';
    if (ifMatch && !target && replaces) {
      throw new ProblemError('precondition_failed', 'This operation does not evaluate If-Match: send the request without it.');
    }
    // Every PATCH and DELETE acts on a resource that exists (or answers 404), so `*` is false; a
    // tag list is not evaluated on writes (If-Match is the write's condition): refused, never ignored.
    if (ifNoneMatch && replaces) {
      throw new ProblemError('precondition_failed', 'If-None-Match is not evaluated on a write: use If-Match with the current ETag.');
    }
    if (tagsPatchAnswer(target) && request.method === 'PATCH') request.tagsAnswer = true;
    return next.handle();
  }
}

/** The If-None-Match of a request, or undefined when absent or malformed (a malformed one was refused before any 200). */
function ifNoneMatchOf(request: FastifyRequest) {
  try {
    return parseEntityTags(request.headers[IF_NONE_MATCH_HEADER], 'If-None-Match');
  } catch {
    return undefined;
  }
}

/**
 * Tags JSON answers under the API prefix as they leave: a 200 to GET (one resource or a page:
 * the page's tag covers its entries and its cursor) and to a PATCH marked IfMatchChecked gets
 * `ETag`, the strong etagOfJson of the body as sent (no parsing again); a GET whose If-None-Match names that tag (weak
 * comparison) or is `*` answers 304 with no body, keeping the other headers.
 */
export function tagRepresentations(fastify: FastifyInstance, prefix: string): void {
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const tagged = request.method === 'GET' || (request as unknown as ConditionalRequest).tagsAnswer === true;
    if (!tagged || reply.statusCode !== 200 || typeof payload !== 'string' || !request.url.startsWith(prefix)) return payload;
    if (!isJsonContentType(String(reply.getHeader('content-type') ?? ''))) return payload;
    const etag = etagOfJson(payload);
    reply.header('etag', etag);
    const condition = request.method === 'GET' ? ifNoneMatchOf(request) : undefined;
    if (!condition || !noneMatchHolds(condition, etag)) return payload;
    reply.code(304).removeHeader('content-type').removeHeader('content-length');
    return '';
  });
}
