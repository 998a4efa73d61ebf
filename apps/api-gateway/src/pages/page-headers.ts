import { STYLE_SRC } from '#libs/web';

/**
 * Nothing runs, nothing loads from elsewhere: no scripts at all, only the site's own stylesheet
 * (served by this app, see AssetsController), forms that post back to this origin, and no framing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  STYLE_SRC,
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Headers of every page: the CSP, and no referrer (the /r URLs hold the confirmation token). */
export const PAGE_HEADERS: Record<string, string> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};
