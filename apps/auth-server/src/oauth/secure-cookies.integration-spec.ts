import { authorizeUrl, type AuthServer, bootAuthServer, pkce, REDIRECT_URI } from '../testing/oauth-flow.js';

/** The provider's cookies set by starting a code flow (its interaction and resume cookies), with the request's extra headers. */
async function flowCookies(server: AuthServer, headers: Record<string, string> = {}): Promise<string[]> {
  const clientId = await server.registerClient({
    client_name: 'Cookie app',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code'],
  });
  const res = await fetch(`${server.url}${authorizeUrl(clientId, pkce().challenge)}`, { headers, redirect: 'manual' });
  expect(res.status).toBe(303);
  const cookies = res.headers.getSetCookie().filter((c) => c.startsWith('_interaction'));
  expect(cookies.length).toBeGreaterThanOrEqual(2);
  return cookies;
}

const secure = (cookie: string) => /;\s*secure(;|$)/i.test(cookie);

describe('OAuth cookies behind a TLS-terminating proxy', () => {
  describe('with an https public URL', () => {
    const server = bootAuthServer('auth_cookies_https', 'cookies-https-admin-token', { env: { AUTH_URL: 'https://auth.example.test' } });

    it('marks every provider cookie Secure, though the request reached the app over plain http', async () => {
      expect((await flowCookies(server)).every(secure)).toBe(true);
    });
  });

  describe('with an http public URL behind a trusted proxy', () => {
    const server = bootAuthServer('auth_cookies_proxy', 'cookies-proxy-admin-token', { env: { TRUST_PROXY: 'true' } });

    it('marks the cookies Secure when the proxy says the request came over https, and not otherwise', async () => {
      expect((await flowCookies(server, { 'x-forwarded-proto': 'https' })).every(secure)).toBe(true);
      expect((await flowCookies(server)).some(secure)).toBe(false);
    });
  });

  describe('with an http public URL and no trusted proxy', () => {
    const server = bootAuthServer('auth_cookies_plain', 'cookies-plain-admin-token');

    it('ignores X-Forwarded-Proto from a client', async () => {
      expect((await flowCookies(server, { 'x-forwarded-proto': 'https' })).some(secure)).toBe(false);
    });
  });
});
