import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { EdgeRateLimiter, meterUnguardedRefusals } from '#libs/edge';
import { REQUEST_ID_HEADER } from '#libs/observability';
import { ProblemFilter, sendProblem, toProblem } from '#libs/problem';
import { type AppDefinition, hoursToSeconds } from '#libs/runtime';
import { gatewayDataSourceSpec } from './database.js';
import { gatewaySpec } from './gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import { useApiPrefix } from './http/api-prefix.js';
import { tagRepresentations } from './http/conditional-requests.js';
import { acceptJsonOnly } from './http/json-only.js';
import { settleIdempotentResponses } from './idempotency/idempotency.hooks.js';
import { IdempotencyStore } from './idempotency/idempotency.store.js';
import { API_PREFIX, buildOpenApiDocument, serveOpenApi } from './openapi/openapi.js';
import { isPagePath, PageProblemFilter, sendProblemPage } from './pages/page-errors.js';

/**
 * The REST edge: authenticates, rate-limits, honours Idempotency-Key, checks scopes, validates,
 * forwards over the bus, renders problems; also serves the public pages.
 */
export const apiGatewayApp: AppDefinition<typeof gatewaySpec> = {
  name: 'api-gateway',
  config: gatewaySpec,
  database: gatewayDataSourceSpec,
  module: (context) => GatewayModule.register(context),
  fastify: (context) => {
    const { config } = context;
    return {
      trustProxy: config.trustProxy,
      // The router's own errors (a malformed URL): HTML on the pages, problem+json elsewhere.
      frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        reply.header(REQUEST_ID_HEADER, request.id);
        if (isPagePath(request.url)) sendProblemPage(reply, error, context.logger);
        else sendProblem(reply, toProblem(error), config.problemBase, request.id);
      },
    };
  },
  retention: (context) => [
    {
      table: 'idempotency_keys',
      key: ['id'],
      after: 'expires_at',
      retentionSeconds: hoursToSeconds(context.config.idempotencyRetentionHours),
    },
  ],
  configure(app, context) {
    const { config } = context;
    useApiPrefix(app);
    // Registered after the runtime's problem filter, so it is asked first; it hands every non-page path back to a problem filter.
    app.useGlobalFilters(new PageProblemFilter(new ProblemFilter(config.problemBase, context.logger), context.logger));
    const fastify = app.getHttpAdapter().getInstance();
    acceptJsonOnly(fastify, `/${API_PREFIX}/`, config.problemBase);
    settleIdempotentResponses(fastify, app.get(IdempotencyStore), context.logger);
    meterUnguardedRefusals(fastify, app.get(EdgeRateLimiter));
    tagRepresentations(fastify, `/${API_PREFIX}/`);
    serveOpenApi(app, buildOpenApiDocument(app, config.publicBaseUrl));
  },
};
export { buildOpenApiDocumentOffline } from './openapi/offline-document.js';
