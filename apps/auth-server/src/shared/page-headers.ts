import { STYLE_SRC } from '#libs/web';

/**
 * Headers of every HTML page the auth-server serves (its own and oidc-provider's): no script
 * runs and nothing loads but the site's stylesheet from this origin (AssetsController), no framing
 * (CSP and X-Frame-Options for older browsers), no referrer, no sniffing, never cached. No
 * form-action: the consent form's redirects end at the client's redirect_uri, which browsers
 * check against form-action.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; ${STYLE_SRC}; frame-ancestors 'none'; base-uri 'none'`,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/** The account pages' headers: as every page's, and their forms post to this origin only. */
export const ACCOUNT_PAGE_HEADERS: Readonly<Record<string, string>> = {
  ...PAGE_HEADERS,
  'content-security-policy': `default-src 'none'; ${STYLE_SRC}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
};
