import type { FastifyInstance } from 'fastify';
import { ProblemError, sendProblem } from '#libs/problem';
import type { McpConfig } from './mcp.config.js';

/** Where MCP clients find the RFC 9728 metadata of this surface (the path they derive from MCP_URL). */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource/mcp';

const MCP_PATH = /^\/mcp(?:[/?]|$)/;

/**
 * The HTTP rules of /mcp beyond authentication:
 * - a browser request from an origin that is not allowed is refused (403) before anything else,
 *   so a web page cannot drive the tools with a credential it found (DNS rebinding);
 * - every 401 carries `WWW-Authenticate: Bearer resource_metadata="…"`, where a client
 *   discovers the authorization server (MCP authorization, RFC 9728 section 5.1).
 */
export function installMcpHooks(fastify: FastifyInstance, config: McpConfig): void {
  const allowed = new Set(config.allowedOrigins ?? [new URL(config.mcpUrl).origin]);
  const resourceMetadata = `${new URL(config.mcpUrl).origin}${PROTECTED_RESOURCE_PATH}`;

  fastify.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (origin === undefined || !MCP_PATH.test(request.url) || allowed.has(origin)) return;
    sendProblem(reply, new ProblemError('forbidden', `Requests from the origin ${origin} are not allowed (MCP_ALLOWED_ORIGINS).`), config.problemBase, request.id);
    return reply;
  });

  fastify.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 401) {
      const error = request.headers.authorization === undefined ? '' : ', error="invalid_token"';
      reply.header('www-authenticate', `Bearer resource_metadata="${resourceMetadata}"${error}`);
    }
    return payload;
  });
}
