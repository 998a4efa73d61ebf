import { type DynamicModule, Module } from '@nestjs/common';
import { oauthIssuer, protectedResourceMetadata } from '#libs/contracts';
import { edgeProviders } from '#libs/edge';
import type { AppContext } from '#libs/runtime';
import type { McpConfig } from './mcp.config.js';
import { McpController } from './mcp.controller.js';
import { PROTECTED_RESOURCE_METADATA, ProtectedResourceController } from './protected-resource.js';
import { ToolCatalog } from './tools/tool-catalog.js';

@Module({})
export class McpModule {
  static register(context: AppContext<McpConfig>): DynamicModule {
    const { config } = context;
    return {
      module: McpModule,
      controllers: [ProtectedResourceController, McpController],
      providers: [
        { provide: PROTECTED_RESOURCE_METADATA, useValue: protectedResourceMetadata(config.mcpUrl, config.authUrl) },
        { provide: ToolCatalog, useValue: new ToolCatalog(config.problemBase) },
        ...edgeProviders({
          bus: context.bus,
          tokens: { issuer: oauthIssuer(config.authUrl), audience: config.mcpUrl },
          limits: config,
          redisUrl: context.redisUrl,
          logger: context.logger,
          metrics: context.metrics,
        }),
      ],
    };
  }
}
