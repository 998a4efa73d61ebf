import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** site.css: beside this file in the repository, and copied beside the compiled file by the lib's build. */
export const STYLESHEET = readFileSync(new URL('./site.css', import.meta.url), 'utf8');

/** The first 16 hex digits of the stylesheet's SHA-256: a new stylesheet is a new address, so the old one can be cached for ever. */
export const STYLESHEET_HASH = createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 16);

/** Where every app that serves pages serves the stylesheet, and where every page links it. */
export const STYLESHEET_PATH = `/assets/site-${STYLESHEET_HASH}.css`;

/** The stylesheet's response headers: cached for a year (its address changes with its content), never sniffed. */
export const STYLESHEET_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/css; charset=utf-8',
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
};

/** The Content-Security-Policy directive that lets a page load the stylesheet, and no other style. */
export const STYLE_SRC = "style-src 'self'";
