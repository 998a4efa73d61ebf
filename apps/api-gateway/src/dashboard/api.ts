import type { FastifyInstance } from 'fastify';
import type { ProblemBody } from '#libs/problem';
import { API_PREFIX } from '../openapi/openapi.js';

/** One answer of the REST API, as an integrator would get it. */
export interface ApiAnswer<T> {
  status: number;
  /** The parsed JSON body (a problem when status is 400 or more); undefined for 204 and non-JSON bodies. */
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
  /** The body as sent (a CSV export, say). */
  text: string;
}

/** A refusal of the REST API, thrown by `ok` for the page to show. */
export class ApiProblem extends Error {
  constructor(readonly problem: ProblemBody) {
    super(problem.detail ?? problem.title);
  }
}

export interface ApiRequest {
  token: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The browser's address: limits per address count the person, not the gateway. */
  remoteAddress: string;
}

/**
 * The dashboard's only way to the platform: the gateway's own REST API, in process (Fastify's
 * inject), with the signed-in user's OAuth token. Every action passes the same credential check,
 * rate limits, idempotency, validation, scopes, roles, tiers, logs and metrics as an integrator's
 * request: the dashboard has no back door.
 */
export class DashboardApi {
  constructor(private readonly fastify: FastifyInstance) {}

  async call<T>(request: ApiRequest): Promise<ApiAnswer<T>> {
    const res = await this.fastify.inject({
      method: request.method,
      url: `/${API_PREFIX}${request.path}`,
      remoteAddress: request.remoteAddress,
      headers: {
        authorization: `Bearer ${request.token}`,
        accept: 'application/json',
        ...(request.body !== undefined && { 'content-type': 'application/json' }),
        ...request.headers,
      },
      ...(request.body !== undefined && { payload: JSON.stringify(request.body) }),
    });
    const type = String(res.headers['content-type'] ?? '');
    const body = /json/.test(type) && res.body ? (JSON.parse(res.body) as T) : (undefined as T);
    return { status: res.statusCode, body, headers: res.headers, text: res.body };
  }

  /** The body of a 2xx answer; a refusal is thrown as an ApiProblem. */
  async ok<T>(request: ApiRequest): Promise<ApiAnswer<T>> {
    const answer = await this.call<T>(request);
    if (answer.status >= 400) throw new ApiProblem(answer.body as ProblemBody);
    return answer;
  }
}
