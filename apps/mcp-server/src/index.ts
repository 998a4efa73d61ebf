import { Module } from '@nestjs/common';
import type { AppDefinition } from '#libs/runtime';

@Module({})
class McpModule {}

/** The mcp-server: the MCP surface over Streamable HTTP (its tools come with their issue). It owns no schema. */
export const mcpServerApp: AppDefinition = {
  name: 'mcp-server',
  module: () => ({ module: McpModule }),
};
