import { EdgeRateLimiter, meterUnguardedRefusals } from '#libs/edge';
import type { AppDefinition } from '#libs/runtime';
import { mcpSpec } from './mcp.config.js';
import { installMcpHooks } from './mcp.hooks.js';
import { McpModule } from './mcp.module.js';

/**
 * The MCP surface: Streamable HTTP at /mcp, an OAuth resource server for MCP_URL whose tools
 * make the gateway's bus requests with the caller's principal. It owns no schema.
 */
export const mcpServerApp: AppDefinition<typeof mcpSpec> = {
  name: 'mcp-server',
  config: mcpSpec,
  module: (context) => McpModule.register(context),
  fastify: ({ config }) => ({ trustProxy: config.trustProxy }),
  configure(app, { config }) {
    const fastify = app.getHttpAdapter().getInstance();
    installMcpHooks(fastify, config);
    meterUnguardedRefusals(fastify, app.get(EdgeRateLimiter));
  },
};
