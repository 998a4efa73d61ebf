import { Module } from '@nestjs/common';
import { loadConfig, publicUrlsSpec } from '#libs/config';
import type { AppDefinition } from '#libs/runtime';
import { protectedResourceMetadata } from '#libs/contracts';
import { PROTECTED_RESOURCE_METADATA, ProtectedResourceController } from './protected-resource.js';

@Module({})
class McpModule {}

/** The mcp-server: the MCP surface over Streamable HTTP (its tools come with their issue). It owns no schema. */
export const mcpServerApp: AppDefinition = {
  name: 'mcp-server',
  module: (context) => {
    const { mcpUrl, authUrl } = loadConfig(publicUrlsSpec, context.env);
    return {
      module: McpModule,
      controllers: [ProtectedResourceController],
      providers: [{ provide: PROTECTED_RESOURCE_METADATA, useValue: protectedResourceMetadata(mcpUrl, authUrl) }],
    };
  },
};
