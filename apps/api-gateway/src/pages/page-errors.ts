import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { Logger } from '#libs/observability';
import { ProblemError, toProblem } from '#libs/problem';
import type { SafeHtml } from '#libs/web';
import { isCalendarPath } from '../calendars/calendar-routes.js';
import { PAGE_HEADERS } from './page-headers.js';
import { errorPage, notFoundPage } from './views.js';

/** /s/…, /r/…, /unsubscribe/…, /mailbox and the dashboard's /app: the people's pages, which answer HTML whatever happens, never JSON (but their calendar files). */
export function isPagePath(url: string | undefined): boolean {
  return /^\/(?:[sr]|unsubscribe|mailbox|app)(?:[/?#]|$)/.test(url ?? '') && !isCalendarPath(url);
}

export interface ProblemPage {
  status: number;
  page: SafeHtml;
  /** Headers the problem carries (Retry-After). */
  headers: Record<string, string>;
}

/** Words for a person of what the problem API would have said. */
function messageOf(problem: ProblemError): string {
  const paths = new Set((problem.errors ?? []).map((e) => e.path));
  if (problem.status === 429) return 'Too many requests. Please wait a minute and try again.';
  if (paths.has('path')) return 'This address is not valid. Please check the link and try again.';
  if (problem.errors?.some((e) => e.path === 'body' && /too large/i.test(e.message))) {
    return 'What was sent is too large. Please go back to the page and send the form again.';
  }
  if (paths.has('body') || problem.code === 'bad_request')
    return 'The form could not be read. Please go back to the page and send it from there.';
  return 'This request could not be handled. Please go back to the page and try again.';
}

/** Any error on a page route, as the HTML page to answer with, with the status the problem API would have used. */
export function problemPage(err: unknown): ProblemPage {
  const problem = toProblem(err);
  if (problem.status >= 500) return { status: problem.status, page: errorPage('Please try again in a moment.'), headers: {} };
  if (problem.code === 'not_found') return { status: 404, page: notFoundPage(), headers: {} };
  return {
    status: problem.status,
    page: errorPage(messageOf(problem), 'This could not be done'),
    headers: problem.status === 429 ? problem.headers : {},
  };
}

interface PageReply {
  status(code: number): PageReply;
  header(name: string, value: string): PageReply;
  send(body: unknown): unknown;
}

/** Sends a problem as the HTML error page with the page headers. */
export function sendProblemPage(reply: PageReply, err: unknown, logger?: Pick<Logger, 'error'>): void {
  const rendered = problemPage(err);
  if (rendered.status >= 500) logger?.error({ err }, 'page failed');
  reply.status(rendered.status);
  for (const [name, value] of Object.entries({ ...PAGE_HEADERS, ...rendered.headers })) reply.header(name, value);
  reply.send(rendered.page.value);
}

/**
 * Errors that never reach the pages controller (a body that cannot be parsed or has another
 * content type, an unknown route or method under /s/ or /r/) answer the HTML error page there,
 * with the same status; every other path gets the fallback (the problem+json filter).
 */
@Catch()
export class PageProblemFilter implements ExceptionFilter {
  constructor(
    private readonly fallback: ExceptionFilter,
    private readonly logger: Pick<Logger, 'error'>,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<{ url?: string }>();
    if (!isPagePath(request.url)) {
      this.fallback.catch(exception, host);
      return;
    }
    sendProblemPage(http.getResponse<PageReply>(), exception, this.logger);
  }
}
