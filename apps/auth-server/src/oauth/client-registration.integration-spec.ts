import { type AuthServer, bootAuthServer } from '../testing/oauth-flow.js';
import { CLIENT_LIMITS } from './client-policy.js';

async function register(
  server: AuthServer,
  metadata: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], scope: 'signups:read', ...metadata }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe('dynamic client registration limits', () => {
  describe('per client IP', () => {
    const server = bootAuthServer('auth_dcr_rate', 'dcr-rate-admin-token', {
      env: { OAUTH_REGISTRATIONS_PER_HOUR: '3', TRUST_PROXY: 'true' },
    });

    it('registers as many clients an hour from one IP as configured, then answers 429 with Retry-After; another IP still registers', async () => {
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => register(server, { redirect_uris: ['https://app.example.test/cb'] }, from('198.51.100.7'))),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
      const refused = answers.filter((a) => a.status === 429);
      expect(refused).toHaveLength(3);
      expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThan(3000);
      expect(refused[0]?.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'Too many client registrations from this address. Try again in 60 minutes.',
      });
      expect((await register(server, { redirect_uris: ['https://app.example.test/cb'] }, from('198.51.100.8'))).status).toBe(201);
    });
  });

  describe('metadata', () => {
    const server = bootAuthServer('auth_dcr_metadata', 'dcr-metadata-admin-token');

    it.each([
      ['web', 'https://app.example.test/callback'],
      ['web', 'http://127.0.0.1:8080/callback'],
      ['web', 'http://[::1]:8080/callback'],
      ['web', 'http://localhost:33418/callback'],
      ['native', 'com.example.app:/oauth2redirect'],
      ['native', 'cursor://anysphere.cursor-retrieval/oauth/callback'],
    ])('accepts for a %s app the redirect URI %s', async (applicationType, uri) => {
      expect((await register(server, { application_type: applicationType, redirect_uris: [uri] })).status).toBe(201);
    });

    it.each([
      ['plain http to another host', 'http://app.example.test/callback'],
      ['plain http to a private address', 'http://10.0.0.8/callback'],
      ['javascript', 'javascript:alert(1)//'],
      ['data', 'data:text/html,hi'],
      ['file', 'file:///etc/passwd'],
    ])('refuses %s as a redirect URI with invalid_redirect_uri', async (_label, uri) => {
      const res = await register(server, { redirect_uris: ['https://app.example.test/ok', uri] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    });

    it.each([
      ['a 40 KB client_name', { client_name: 'x'.repeat(40_000) }, `client_name must be at most ${CLIENT_LIMITS.nameLength} characters`],
      [
        '1,000 redirect URIs',
        { redirect_uris: Array.from({ length: 1000 }, (_, i) => `https://app.example.test/cb${i}`) },
        `redirect_uris must have at most ${CLIENT_LIMITS.listLength} members`,
      ],
      [
        'a 3,000-character redirect URI',
        { redirect_uris: [`https://app.example.test/${'a'.repeat(3000)}`] },
        `redirect_uris must be at most ${CLIENT_LIMITS.stringLength} characters`,
      ],
      [
        '11 contacts',
        { contacts: Array.from({ length: 11 }, (_, i) => `c${i}@example.test`) },
        `contacts must have at most ${CLIENT_LIMITS.listLength} members`,
      ],
      [
        'a long logo URI',
        { logo_uri: `https://app.example.test/${'l'.repeat(2100)}` },
        `logo_uri must be at most ${CLIENT_LIMITS.stringLength} characters`,
      ],
      ['a lone surrogate in client_name', { client_name: 'App \ud800' }, 'client_name must be valid Unicode, with no NUL character'],
      [
        'a lone surrogate in a redirect URI',
        { redirect_uris: ['https://app.example.test/\udc00'] },
        'redirect_uris must be valid Unicode, with no NUL character',
      ],
      [
        'a lone surrogate in client_uri',
        { client_uri: 'https://app.example.test/\udbff' },
        'client_uri must be valid Unicode, with no NUL character',
      ],
      ['a NUL in client_name', { client_name: 'App\u0000' }, 'client_name must be valid Unicode, with no NUL character'],
      ['a NUL in a contact', { contacts: ['a\u0000@example.test'] }, 'contacts must be valid Unicode, with no NUL character'],
    ])('refuses %s', async (_label, metadata, description) => {
      const res = await register(server, { redirect_uris: ['https://app.example.test/cb'], ...metadata });
      expect(res.status).toBe(400);
      expect(res.body.error_description).toBe(description);
      expect(['invalid_client_metadata', 'invalid_redirect_uri']).toContain(res.body.error);
    });
  });
});
