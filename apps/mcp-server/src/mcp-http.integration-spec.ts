import { ALL_SCOPES } from '#libs/scopes';
import { createTestStack, RELAXED_LIMITS_ENV, type TestStack } from '#libs/testing';
import { mcpServerApp } from './index.js';

const MCP_URL = 'https://mcp.example.test/mcp';
const AUTH_URL = 'https://auth.example.test';
const RESOURCE_METADATA = 'https://mcp.example.test/.well-known/oauth-protected-resource/mcp';
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

let stack: TestStack;
let url: string;

const post = (headers: Record<string, string>) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(INITIALIZE),
  });

beforeAll(async () => {
  stack = await createTestStack('mcp_protected_resource');
  const running = await stack.boot(mcpServerApp, {
    ...RELAXED_LIMITS_ENV,
    MCP_URL,
    AUTH_URL,
    MCP_ALLOWED_ORIGINS: 'https://agent.example.test',
  });
  url = running.url;
});

afterAll(async () => {
  await stack?.close();
});

describe('RFC 9728 protected-resource metadata', () => {
  it('names MCP_URL as the resource and AUTH_URL as its authorization server, without credentials', async () => {
    const res = await fetch(`${url}/.well-known/oauth-protected-resource/mcp`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({
      resource: MCP_URL,
      authorization_servers: [AUTH_URL],
      scopes_supported: [...ALL_SCOPES],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('the 401 challenge of /mcp', () => {
  it('answers a request without a credential with missing_credentials and where to find the metadata', async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${RESOURCE_METADATA}"`);
    expect(await res.json()).toMatchObject({ code: 'missing_credentials', status: 401 });
  });

  it('says invalid_request when the Authorization header is not a bearer credential', async () => {
    const res = await post({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${RESOURCE_METADATA}", error="invalid_request"`);
    expect(await res.json()).toMatchObject({ code: 'malformed_credentials' });
  });

  it('says invalid_token for a bearer key that is not one of ours', async () => {
    const res = await post({ authorization: 'Bearer sgn_test_short' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${RESOURCE_METADATA}", error="invalid_token"`);
    expect(await res.json()).toMatchObject({ code: 'invalid_credentials' });
  });

  it('challenges GET and DELETE too, before saying they are not offered', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${url}/mcp`, { method });
      expect({ method, status: res.status }).toEqual({ method, status: 401 });
      expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
    }
  });
});

describe('bodies that cannot be read', () => {
  it('refuses a message whose arguments nest thousands deep as a 422 on body before looking at the credential', async () => {
    const res = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_signup","arguments":{"title":${'['.repeat(2000)}${']'.repeat(2000)}}}}`,
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'body', message: 'Nested too deeply: at most 32 levels' }],
    });
  });
});

describe('Origin validation', () => {
  it('refuses a browser request from an origin not in MCP_ALLOWED_ORIGINS before looking at the credential', async () => {
    const res = await post({ origin: 'https://evil.example.test', authorization: 'Bearer sgn_test_whatever' });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'forbidden', detail: expect.stringContaining('https://evil.example.test') });
  });

  it('refuses it however the path is spelled and whatever the method', async () => {
    const evil = { origin: 'https://evil.example.test' };
    expect(
      (await fetch(`${url}/%6dcp`, { method: 'POST', headers: { ...evil, 'content-type': 'application/json' }, body: '{}' })).status,
    ).toBe(403);
    expect((await fetch(`${url}/mcp`, { headers: evil })).status).toBe(403);
  });

  it('lets an allowed origin, and a client that sends none, through to authentication', async () => {
    expect((await post({ origin: 'https://agent.example.test' })).status).toBe(401);
    expect((await post({})).status).toBe(401);
  });

  it('leaves the metadata readable from any origin', async () => {
    const res = await fetch(`${url}/.well-known/oauth-protected-resource/mcp`, { headers: { origin: 'https://evil.example.test' } });
    expect(res.status).toBe(200);
  });
});
