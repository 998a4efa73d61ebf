import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import { loggablePath } from '#libs/observability';
import { PROBLEM_CONTENT_TYPE, toProblemBody } from './problem-body.js';
import { asProblem, ProblemError } from './problem-error.js';

interface ReplyLike {
  status(code: number): ReplyLike;
  header(name: string, value: string): ReplyLike;
  send(body: unknown): unknown;
}

interface RequestLike {
  id?: string;
  method?: string;
  url?: string;
}

export interface ProblemLogger {
  error(obj: object, msg: string): void;
}

/** Fastify's own client errors (bad JSON, wrong content type, too large) as contract problems. */
function fromFrameworkError(err: { statusCode?: number; code?: string; message?: string }): ProblemError | undefined {
  const status = err.statusCode;
  if (status === undefined || status >= 500) return undefined;
  if (status === 404) return new ProblemError('not_found', 'No such route.');
  if (status === 405) return new ProblemError('not_found', 'No such route.');
  if (status === 414) {
    return ProblemError.validation([{ path: 'path', message: 'Path parameter too long' }], 'A path parameter is too long.');
  }
  if (status === 400 && err.code === 'FST_ERR_BAD_URL') {
    return ProblemError.validation([{ path: 'path', message: 'Malformed URL encoding' }], 'The URL is not validly encoded.');
  }
  if (status === 413) {
    return ProblemError.validation([{ path: 'body', message: 'Body is too large' }], 'The request body is too large.');
  }
  if (status === 415) {
    return ProblemError.validation([{ path: 'body', message: 'Content-Type must be application/json' }]);
  }
  if (status === 400 && err.code?.startsWith('FST_ERR_CTP')) {
    return ProblemError.validation([{ path: 'body', message: 'Malformed JSON' }], 'The request body is not valid JSON.');
  }
  if (status === 400) return new ProblemError('bad_request', 'The request could not be processed.');
  return undefined;
}

/** Turns every error escaping a handler into an application/problem+json response. */
export function toProblem(exception: unknown): ProblemError {
  if (exception instanceof ProblemError) return exception;
  if (exception instanceof HttpException) {
    const cause = exception.cause as { code?: string } | undefined;
    return fromFrameworkError({ statusCode: exception.getStatus(), code: cause?.code }) ?? asProblem(exception);
  }
  if (typeof exception === 'object' && exception !== null && 'statusCode' in exception) {
    return fromFrameworkError(exception as { statusCode?: number; code?: string }) ?? asProblem(exception);
  }
  return asProblem(exception);
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  constructor(
    private readonly problemBase: string,
    private readonly logger?: ProblemLogger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<ReplyLike>();
    const request = http.getRequest<RequestLike>();
    const problem = toProblem(exception);
    if (problem.status >= 500 && this.logger) {
      this.logger.error(
        { err: exception, code: problem.code, method: request.method, url: loggablePath(request.url ?? '') },
        'request failed',
      );
    }
    sendProblem(reply, problem, this.problemBase, request.id);
  }
}

export function sendProblem(reply: ReplyLike, problem: ProblemError, problemBase: string, requestId?: string): void {
  reply.status(problem.status).header('content-type', PROBLEM_CONTENT_TYPE);
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
  reply.send(toProblemBody(problem, problemBase, requestId));
}
