import type { KoaContext } from 'oidc-provider';
import { PAGE_HEADERS } from '../../shared/page-headers.js';

/** The device pages are ours (rendered through oidc-provider): they carry every page's headers. */
const DEVICE_PAGE_ROUTES = new Set(['code_verification', 'device_resume']);

/** Headers that keep any other HTML of the provider (its error pages, a form_post) out of frames, unsniffed and unstored. */
const PROVIDER_HTML_HEADERS = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': PAGE_HEADERS['x-frame-options']!,
  'x-content-type-options': PAGE_HEADERS['x-content-type-options']!,
  'cache-control': PAGE_HEADERS['cache-control']!,
};

export async function pageHeaders(ctx: KoaContext, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.type !== 'text/html') return;
  ctx.set(DEVICE_PAGE_ROUTES.has(ctx.oidc?.route ?? '') || ctx.state.ourPage === true ? { ...PAGE_HEADERS } : PROVIDER_HTML_HEADERS);
}
