import { Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth } from '#libs/scopes';
import { deviceCodePrefill } from './device-pages.js';
import { clientAddresses } from './middleware/registration-limit.js';
import { httpsRequests } from './middleware/secure-cookies.js';
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

  @Get('.well-known/oauth-protected-resource')
  restResource(): Record<string, unknown> {
    return this.oauth.protectedResources.rest;
  }

  @Get('.well-known/oauth-protected-resource-mcp')
  mcpResource(): Record<string, unknown> {
    return this.oauth.protectedResources.mcp;
  }

  /**
   * The device page. oidc-provider would answer `?user_code=` with a self-submitting form
   * (JavaScript); the code is taken off the URL instead and prefills our page's field.
   */
  @Get('oauth/device')
  async device(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const url = new URL(req.raw.url ?? '/', 'http://localhost');
    const userCode = url.searchParams.get('user_code');
    if (userCode !== null) {
      deviceCodePrefill.set(req.raw, userCode);
      url.searchParams.delete('user_code');
      req.raw.url = `${url.pathname}${url.search}`;
    }
    await this.forward(req, reply);
  }

  @Get(['oauth/authorize', 'oauth/authorize/:uid', 'oauth/device/:uid', 'oauth/jwks'])
  async read(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forward(req, reply);
  }

  @Post(['oauth/register', 'oauth/token', 'oauth/device_authorization', 'oauth/device', 'oauth/revoke'])
  async write(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.forward(req, reply);
  }

  private forward(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    return answerByProvider(this.oauth, req, reply);
  }
}

/** Hands the request to oidc-provider, with the headers Fastify has set so far. */
export async function answerByProvider(oauth: OAuthProvider, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) reply.raw.setHeader(name, value);
  }
  if (req.protocol === 'https') httpsRequests.add(req.raw);
  clientAddresses.set(req.raw, req.ip);
  reply.hijack();
  await oauth.handle(req.raw, reply.raw);
}
