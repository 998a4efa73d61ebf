import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth } from '#libs/scopes';
import { OAuthProvider } from './oauth-provider.js';

/**
 * The provider's routes, answered by oidc-provider on the raw request and response. Their
 * bodies are left unread by Fastify (see leaveOAuthBodiesUnread), so the provider parses them.
 */
@Controller()
@Auth.public()
export class OAuthController {
  constructor(@Inject(OAuthProvider) private readonly oauth: OAuthProvider) {}

  @Get('.well-known/oauth-authorization-server')
  metadata(): Record<string, unknown> {
    return this.oauth.metadata;
  }

  @Get(['oauth/authorize', 'oauth/authorize/:uid', 'oauth/device', 'oauth/jwks'])
  async read(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forward(req, reply);
  }

  @Post(['oauth/authorize', 'oauth/register', 'oauth/token', 'oauth/device_authorization', 'oauth/device', 'oauth/revoke'])
  async write(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forward(req, reply);
  }

  private async forward(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.hijack();
    await this.oauth.handle(req.raw, reply.raw);
  }
}
