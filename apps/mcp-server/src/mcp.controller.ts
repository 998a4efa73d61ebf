import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Bus } from '#libs/bus';
import type { Principal } from '#libs/contracts';
import { CurrentPrincipal } from '#libs/edge';
import type { Counter, Logger, Metrics } from '#libs/observability';
import { APP_CONFIG, BUS, LOGGER, METRICS } from '#libs/runtime';
import { Auth } from '#libs/scopes';
import { MCP_PATH, type McpConfig } from './mcp.config.js';
import { mcpServer } from './mcp.server.js';
import { ToolCatalog } from './tools/tool-catalog.js';

/** Checked by the guards already, and of no use to a tool: never handed to the SDK. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie']);

/** The request as the SDK's transport reads it: method, headers and URL (the body is already parsed). */
function webRequest(request: FastifyRequest, url: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !CREDENTIAL_HEADERS.has(name)) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(url, { method: request.method, headers });
}

/** A JSON-RPC error as the transport itself answers one. */
function rpcError(reply: FastifyReply, status: number, code: number, message: string): void {
  reply.status(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

function methodNotAllowed(reply: FastifyReply): void {
  rpcError(reply.header('allow', 'POST'), 405, -32000, 'Method not allowed: this MCP server is stateless, send each message with POST.');
}

/**
 * Streamable HTTP at /mcp, stateless: each POST carries one JSON-RPC message and gets its answer
 * as JSON. The credential and rate limit guards have run before (a missing or bad credential,
 * a token for another resource, an exhausted budget: problem+json, never a JSON-RPC answer).
 */
@Controller(MCP_PATH)
@Auth.credential()
export class McpController {
  private readonly publicOrigin: string;
  private readonly toolCalls: Counter<'tool' | 'outcome'>;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(METRICS) metrics: Metrics,
    @Inject(APP_CONFIG) private readonly config: McpConfig,
    @Inject(ToolCatalog) private readonly catalog: ToolCatalog,
  ) {
    this.publicOrigin = new URL(config.publicBaseUrl).origin;
    this.toolCalls = metrics.counter('mcp_tool_calls_total', 'MCP tool calls, by tool and outcome (ok or the problem code)', [
      'tool',
      'outcome',
    ]);
  }

  @Post()
  async message(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @CurrentPrincipal() principal: Principal): Promise<void> {
    // Answers hold contact details and confirmation tokens: no cache keeps them.
    reply.header('cache-control', 'no-store');
    // Batches left the protocol in 2025-06-18; one message per request is also one call of the caller's budget.
    if (Array.isArray(request.body))
      return rpcError(reply, 400, -32600, 'Batches are not supported: send one JSON-RPC message per request.');
    const context = { bus: this.bus, principal, publicOrigin: this.publicOrigin };
    const server = mcpServer(this.catalog, context, request.id, (tool, outcome) => {
      this.toolCalls.inc({ tool, outcome: outcome.ok ? 'ok' : outcome.problem.code });
      if (!outcome.ok && outcome.problem.status >= 500)
        this.logger.error({ err: outcome.error, tool, code: outcome.problem.code }, 'tool failed');
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(webRequest(request, this.config.mcpUrl), { parsedBody: request.body });
      reply.status(response.status).headers(Object.fromEntries(response.headers));
      await reply.send(response.body === null ? undefined : await response.text());
    } finally {
      await server.close();
    }
  }

  /** No server-initiated stream: the surface is stateless. */
  @Get()
  stream(@Res() reply: FastifyReply): void {
    methodNotAllowed(reply);
  }

  /** No session to end. */
  @Delete()
  endSession(@Res() reply: FastifyReply): void {
    methodNotAllowed(reply);
  }
}
