import { ConfigError, loadConfig } from '#libs/config';
import { mcpSpec } from './mcp.config.js';

describe('mcp-server configuration', () => {
  it('takes MCP_URL on any host, but only with the path the server answers on', () => {
    expect(loadConfig(mcpSpec, { MCP_URL: 'https://agents.example.com/mcp/' }).mcpUrl).toBe('https://agents.example.com/mcp');
    expect(() => loadConfig(mcpSpec, { MCP_URL: 'https://example.com/tools/mcp' })).toThrow(ConfigError);
    expect(() => loadConfig(mcpSpec, { MCP_URL: 'https://example.com/tools/mcp' })).toThrow(/MCP_URL must end in \/mcp/);
  });

  it('reads MCP_ALLOWED_ORIGINS as a list of origins and refuses anything else', () => {
    expect(loadConfig(mcpSpec, {}).allowedOrigins).toBeUndefined();
    expect(loadConfig(mcpSpec, { MCP_ALLOWED_ORIGINS: 'https://a.example.com, http://localhost:5173' }).allowedOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    expect(() => loadConfig(mcpSpec, { MCP_ALLOWED_ORIGINS: 'https://a.example.com/app' })).toThrow(
      /MCP_ALLOWED_ORIGINS must be a comma-separated list of origins/,
    );
  });
});
