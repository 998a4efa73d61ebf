import { ALL_SCOPES } from '#libs/scopes';
import { createTestStack, type TestStack } from '#libs/testing';
import { mcpServerApp } from './index.js';

const MCP_URL = 'https://mcp.example.test/mcp';
const AUTH_URL = 'https://auth.example.test';

let stack: TestStack;
let url: string;

beforeAll(async () => {
  stack = await createTestStack('mcp_protected_resource');
  const running = await stack.boot(mcpServerApp, { MCP_URL, AUTH_URL });
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
