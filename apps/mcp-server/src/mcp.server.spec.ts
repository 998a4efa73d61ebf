import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { InProcessBus } from '#libs/bus';
import type { Principal } from '#libs/contracts';
import { ALL_SCOPES } from '#libs/scopes';
import { mcpServer } from './mcp.server.js';
import { ToolCatalog } from './tools/tool-catalog.js';

const principal: Principal = {
  userId: 'usr_1',
  organizationId: 'org_1',
  tier: 'pro',
  livemode: false,
  scopes: [...ALL_SCOPES],
  credentialId: 'key_1',
  kind: 'api_key',
};
const bus = new InProcessBus({ warn: () => undefined, error: () => undefined }, 50);

async function connected(): Promise<Client> {
  const server = mcpServer(
    new ToolCatalog('https://api.example.test/problems'),
    { bus, principal, publicOrigin: 'https://api.example.test' },
    'req-1',
    () => undefined,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  return client;
}

describe('the MCP server', () => {
  afterAll(() => bus.close());

  it.each([
    ['an array', []],
    ['a string', 'x'],
    ['null', null],
    ['a number', 1e308],
  ])('answers a tools/call whose arguments are %s with InvalidParams, not InternalError', async (_case, args) => {
    const client = await connected();
    const call = client.request(
      { method: 'tools/call', params: { name: 'create_signup', arguments: args as never } },
      CallToolResultSchema,
    );
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    await client.close();
  });

  it('answers a lone surrogate in an argument with a tool result holding the validation problem', async () => {
    const client = await connected();
    const args = { signupId: '0b7c7c2e-8e2a-4f57-9a43-3c1b2f1f4a55', name: 'Ann', email: 'ann\ud800@example.com', selections: [] };
    const result = await client.request(
      { method: 'tools/call', params: { name: 'register_participant', arguments: args } },
      CallToolResultSchema,
    );
    expect(result).toMatchObject({
      isError: true,
      structuredContent: { code: 'validation_failed', errors: [{ path: 'email', message: 'Must be valid Unicode' }] },
    });
    await client.close();
  });
});
