import type { RunningApp } from '#libs/runtime';
import { ALL_SCOPES } from '#libs/scopes';
import { createTestStack, freePorts, type TestStack } from '#libs/testing';
import { authServerApp } from '../index.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const PUBLIC_BASE_URL = 'https://api.example.test/api/v1';
const MCP_URL = 'https://mcp.example.test/mcp';

let stack: TestStack;
let running: RunningApp;
let origin: string;

beforeAll(async () => {
  const [port] = await freePorts(1);
  origin = `http://127.0.0.1:${port}`;
  stack = await createTestStack('auth_oauth');
  running = await stack.boot(authServerApp, {
    ADMIN_TOKEN: 'oauth-admin-token',
    AUTH_SERVER_PORT: String(port),
    AUTH_URL: origin,
    PUBLIC_BASE_URL,
    MCP_URL,
  });
});

afterAll(async () => {
  await stack?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function postForm(path: string, form: Record<string, string>): Promise<Answer> {
  return fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  }).then(answer);
}

function register(metadata: Record<string, unknown>): Promise<Answer> {
  return fetch(`${running.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  }).then(answer);
}

async function publicClient(grantTypes: string[] = ['authorization_code', 'refresh_token']): Promise<string> {
  const res = await register({
    client_name: 'Test app',
    redirect_uris: ['http://127.0.0.1:9999/callback'],
    grant_types: grantTypes,
    token_endpoint_auth_method: 'none',
    scope: 'signups:read',
  });
  expect(res.status).toBe(201);
  return res.body.client_id as string;
}

describe('RFC 8414 metadata', () => {
  it('serves exactly the contract values at /.well-known/oauth-authorization-server', async () => {
    const res = await fetch(`${running.url}/.well-known/oauth-authorization-server`).then(answer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      device_authorization_endpoint: `${origin}/oauth/device_authorization`,
      jwks_uri: `${origin}/oauth/jwks`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_GRANT],
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ALL_SCOPES,
      token_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post'],
    });
  });

  it('does not serve the OpenID Connect discovery document', async () => {
    const res = await fetch(`${running.url}/.well-known/openid-configuration`);
    expect(res.status).toBe(404);
  });

  it('publishes one ES256 signing key without its private part', async () => {
    const res = await fetch(`${running.url}/oauth/jwks`).then(answer);
    expect(res.status).toBe(200);
    const keys = res.body.keys as Record<string, unknown>[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });
});

describe('RFC 7591 dynamic client registration', () => {
  it('registers a public client with a cli_ id and no secret', async () => {
    const metadata = {
      client_name: 'Public app',
      redirect_uris: ['http://127.0.0.1:9999/callback'],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      scope: 'signups:read signups:write',
    };
    const res = await register(metadata);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(metadata);
    expect(res.body.client_id).toMatch(/^cli_[0-9A-Za-z]{24}$/);
    expect(res.body).not.toHaveProperty('client_secret');
  });

  it('gives a confidential client a client_secret', async () => {
    const metadata = {
      client_name: 'Server app',
      redirect_uris: ['https://app.example.test/callback'],
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'client_secret_post',
      scope: 'participants:read',
    };
    const res = await register(metadata);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(metadata);
    expect(res.body.client_id).toMatch(/^cli_[0-9A-Za-z]{24}$/);
    expect(typeof res.body.client_secret).toBe('string');
  });

  it('leaves the body to the provider, which answers malformed JSON in the OAuth error form', async () => {
    const res = await fetch(`${running.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"client_name":',
    }).then(answer);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('refuses a scope outside the catalog', async () => {
    const res = await register({
      client_name: 'Greedy app',
      redirect_uris: ['http://127.0.0.1:9999/callback'],
      token_endpoint_auth_method: 'none',
      scope: 'signups:read admin:everything',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_client_metadata');
  });
});

describe('token endpoint errors (RFC 6749 section 5.2)', () => {
  it('answers unsupported_grant_type for an unknown grant_type', async () => {
    const clientId = await publicClient();
    const res = await postForm('/oauth/token', { grant_type: 'urn:example:magic', client_id: clientId });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
    expect(typeof res.body.error_description).toBe('string');
  });

  it('answers invalid_request when a parameter is missing', async () => {
    const clientId = await publicClient();
    const res = await postForm('/oauth/token', {
      grant_type: 'authorization_code',
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:9999/callback',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('answers invalid_client for an unknown client_id', async () => {
    const res = await postForm('/oauth/token', {
      grant_type: 'authorization_code',
      client_id: 'cli_unknown000000000000000000',
      code: 'x',
      code_verifier: 'y'.repeat(43),
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it('answers invalid_grant for a code that was never issued', async () => {
    const clientId = await publicClient();
    const res = await postForm('/oauth/token', {
      grant_type: 'authorization_code',
      client_id: clientId,
      code: 'bogus-code',
      code_verifier: 'v'.repeat(43),
      redirect_uri: 'http://127.0.0.1:9999/callback',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('answers unauthorized_client for the device grant of a client registered without it', async () => {
    const clientId = await publicClient(['authorization_code']);
    const res = await postForm('/oauth/token', { grant_type: DEVICE_GRANT, client_id: clientId, device_code: 'whatever' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });

  it('answers unauthorized_client for refresh by a client registered without refresh_token', async () => {
    const clientId = await publicClient(['authorization_code']);
    const res = await postForm('/oauth/token', { grant_type: 'refresh_token', client_id: clientId, refresh_token: 'whatever' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });
});

describe('device authorization (RFC 8628)', () => {
  it('starts a device flow with a 600 s code polled every 5 s, and answers authorization_pending', async () => {
    const clientId = await publicClient(['authorization_code', 'refresh_token', DEVICE_GRANT]);
    const started = await postForm('/oauth/device_authorization', { client_id: clientId, scope: 'signups:read' });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      device_code: expect.any(String),
      user_code: expect.any(String),
      verification_uri: `${origin}/oauth/device`,
      verification_uri_complete: `${origin}/oauth/device?user_code=${encodeURIComponent(started.body.user_code as string)}`,
      expires_in: 600,
      interval: 5,
    });
    const polled = await postForm('/oauth/token', {
      grant_type: DEVICE_GRANT,
      client_id: clientId,
      device_code: started.body.device_code as string,
    });
    expect(polled.status).toBe(400);
    expect(polled.body.error).toBe('authorization_pending');
  });
});

describe('RFC 9728 protected-resource metadata', () => {
  it.each([
    ['/.well-known/oauth-protected-resource', PUBLIC_BASE_URL],
    ['/.well-known/oauth-protected-resource-mcp', MCP_URL],
  ])('serves %s for %s, naming this server as its authorization server', async (path, resource) => {
    const res = await fetch(`${running.url}${path}`).then(answer);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({
      resource,
      authorization_servers: [origin],
      scopes_supported: [...ALL_SCOPES],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('revocation (RFC 7009)', () => {
  it('answers 200 for a token it does not know', async () => {
    const clientId = await publicClient();
    const res = await postForm('/oauth/revoke', { client_id: clientId, token: 'not-a-token' });
    expect(res.status).toBe(200);
  });
});
