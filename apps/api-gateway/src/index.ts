import { loadConfig } from '#libs/config';
import type { AppDefinition } from '#libs/runtime';
import { gatewaySpec } from './gateway.config.js';
import { GatewayModule } from './gateway.module.js';
import { acceptJsonOnly } from './http/json-only.js';
import { API_PREFIX, buildOpenApiDocument, serveOpenApi } from './openapi/openapi.js';
import { PAGE_ROUTES } from './pages/pages.controller.js';

/** The REST edge: authenticates, checks scopes, validates, forwards over the bus, renders problems; also serves the public pages. */
export const apiGatewayApp: AppDefinition = {
  name: 'api-gateway',
  config: gatewaySpec,
  module: (context) => GatewayModule.register(loadConfig(gatewaySpec, context.env)),
  fastify: (context) => ({ trustProxy: loadConfig(gatewaySpec, context.env).trustProxy }),
  configure(app, context) {
    const config = loadConfig(gatewaySpec, context.env);
    app.setGlobalPrefix(API_PREFIX, { exclude: ['healthz', 'readyz', 'metrics', 'problems/:slug', ...PAGE_ROUTES] });
    acceptJsonOnly(app.getHttpAdapter().getInstance(), `/${API_PREFIX}/`, config.problemBase);
    serveOpenApi(app, buildOpenApiDocument(app, config.publicBaseUrl));
  },
};
