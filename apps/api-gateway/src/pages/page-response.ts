import type { FastifyReply } from 'fastify';
import type { Logger } from '#libs/observability';
import type { SafeHtml } from '#libs/web';
import { problemPage } from './page-errors.js';
import { PAGE_HEADERS } from './page-headers.js';

/** A page to answer with. */
export interface Rendered {
  status: number;
  page: SafeHtml;
  /** With a 303: the page to get next (a path on this origin). */
  location?: string;
}

/** Answers a page route with what `render` made, or with the page of whatever problem it threw; always HTML with the page headers. */
export async function respondWithPage(reply: FastifyReply, logger: Logger, render: () => Promise<Rendered>): Promise<string> {
  reply.headers(PAGE_HEADERS);
  let rendered: Rendered;
  try {
    rendered = await render();
  } catch (err) {
    const problem = problemPage(err);
    if (problem.status >= 500) logger.error({ err }, 'page failed');
    reply.headers(problem.headers);
    rendered = problem;
  }
  if (rendered.location) reply.header('location', rendered.location);
  reply.status(rendered.status);
  return rendered.page.value;
}
