import { createHash } from 'node:crypto';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { type Observable, of } from 'rxjs';
import { canonicalJson, IF_MATCH_HEADER, type Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { type Claim, IdempotencyStore, type StoredResponse } from './idempotency.store.js';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey } from './idempotency-key.js';

/** What the interceptor leaves on a request for the onSend hook: a claim to settle, or an answer to replay. */
export type IdempotencyMark = { claim: Claim } | { replay: StoredResponse };

export interface IdempotentHttpRequest {
  method: string;
  url: string;
  ip: string;
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
  idempotency?: IdempotencyMark;
}

const MUTATIONS = new Set(['POST', 'PATCH', 'DELETE']);

/** The scope of a key: the credential's organization and mode, or the client address when anonymous. */
function scopeOf(request: IdempotentHttpRequest): string {
  const { principal } = request;
  return principal ? `org:${principal.organizationId}:${principal.livemode ? 'live' : 'test'}` : `ip:${request.ip}`;
}

/** The request a key was first used for: method, URL (path and query), the body as parsed, and If-Match when sent. */
export function fingerprintOf(
  request: Pick<IdempotentHttpRequest, 'method' | 'url' | 'body'> & { headers?: IdempotentHttpRequest['headers'] },
): string {
  const ifMatch = request.headers?.[IF_MATCH_HEADER];
  return createHash('sha256')
    .update(`${request.method}\n${request.url}\n${canonicalJson(request.body)}${ifMatch === undefined ? '' : `\n${String(ifMatch)}`}`)
    .digest('hex');
}

/**
 * Idempotency-Key on POST, PATCH and DELETE (after authentication and rate limits, before
 * validation): the first request with a key executes; a repeat gets its stored answer, a
 * different request with the key 422 idempotency_key_reuse, a repeat while it runs 409
 * idempotency_in_progress. The answer is stored or the claim released by the onSend hook.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<IdempotentHttpRequest>();
    if (!MUTATIONS.has(request.method)) return next.handle();
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
    if (key === undefined) return next.handle();
    const begun = await this.store.begin({ scope: scopeOf(request), key, fingerprint: fingerprintOf(request) });
    switch (begun.outcome) {
      case 'execute':
        request.idempotency = { claim: begun.claim };
        return next.handle();
      case 'replay':
        request.idempotency = { replay: begun.response };
        return of(undefined);
      case 'in_progress':
        throw new ProblemError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed. Retry shortly.', {
          headers: { 'retry-after': '1' },
        });
      case 'reuse':
        throw new ProblemError('idempotency_key_reuse', 'This Idempotency-Key was used with a different request within the last 24 hours.');
    }
  }
}
