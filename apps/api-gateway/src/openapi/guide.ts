import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { marked } from 'marked';
import { layout, SafeHtml } from '#libs/web';
import { PAGE_HEADERS } from '../pages/page-headers.js';

/** docs/integrating.md: beside the sources in the repository, and copied to dist/docs by the gateway's build. */
const GUIDE_FILE = new URL('../../../../docs/integrating.md', import.meta.url);

/**
 * The Integrating guide as a page: docs/integrating.md rendered once, at boot. The markdown is
 * ours, never input, so its HTML is trusted as it is rendered; the page has the pages' CSP (no
 * script runs).
 */
export function renderGuide(markdown: string): string {
  const title = /^# (.+)$/m.exec(markdown)?.[1] ?? 'Integrating';
  // A code block wider than the page scrolls: focusable, so a keyboard can scroll it (WCAG 2.1.1).
  const main = marked.parse(markdown, { async: false }).replaceAll('<pre>', '<pre tabindex="0">');
  return layout({ title, main: new SafeHtml(main) }).value;
}

/** Serves the guide at `path`, outside Nest like the OpenAPI document, and not rate limited. */
export function serveGuide(fastify: FastifyInstance, path: string): void {
  const page = renderGuide(readFileSync(GUIDE_FILE, 'utf8'));
  fastify.get(path, (_request, reply) => reply.headers({ ...PAGE_HEADERS, 'cache-control': 'public, max-age=300' }).send(page));
}
