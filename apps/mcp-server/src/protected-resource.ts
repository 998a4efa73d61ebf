import { Controller, Get, Inject } from '@nestjs/common';
import { Auth } from '#libs/scopes';

export const PROTECTED_RESOURCE_METADATA = Symbol('PROTECTED_RESOURCE_METADATA');

/** Where MCP clients find the RFC 9728 metadata of this surface (the path they derive from MCP_URL). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/mcp';

/** The path MCP clients derive from MCP_URL (RFC 9728 section 3.1: the well-known prefix, then the resource path). */
@Controller()
@Auth.public()
export class ProtectedResourceController {
  constructor(@Inject(PROTECTED_RESOURCE_METADATA) private readonly metadata: Record<string, unknown>) {}

  @Get(PROTECTED_RESOURCE_PATH)
  show(): Record<string, unknown> {
    return this.metadata;
  }
}
