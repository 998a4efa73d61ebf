import type { FastifyInstance } from 'fastify';
import { parseAuthorization } from '#libs/edge';
import { ProblemError, sendProblem } from '#libs/problem';
import { MCP_PATH, type McpConfig } from './mcp.config.js';
import { PROTECTED_RESOURCE_PATH } from './protected-resource.js';

/** RFC 6750 section 3.1: a credential that is not a bearer token is a bad request; one that is, an invalid token. */
function challengeError(authorization: string | undefined): string {
  if (authorization === undefined) return '';
  try {
    parseAuthorization(authorization);
    return ', error="invalid_token"';
  } catch {
    return ', error="invalid_request"';
  }
}

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
    if (origin === undefined || request.routeOptions.url !== MCP_PATH || allowed.has(origin)) return;
    sendProblem(
      reply,
      new ProblemError('forbidden', `Requests from the origin ${origin} are not allowed (MCP_ALLOWED_ORIGINS).`),
      config.problemBase,
      request.id,
    );
    return reply;
  });

  fastify.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode === 401)
      reply.header('www-authenticate', `Bearer resource_metadata="${resourceMetadata}"${challengeError(request.headers.authorization)}`);
    return payload;
  });
}
