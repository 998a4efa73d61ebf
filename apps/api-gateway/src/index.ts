import { env, loadConfig, publicUrlsSpec } from '#libs/config';
import type { AppDefinition } from '#libs/runtime';
import { GatewayModule } from './gateway.module.js';
import { acceptJsonOnly } from './http/json-only.js';
import { API_PREFIX, buildOpenApiDocument, serveOpenApi } from './openapi/openapi.js';

const gatewaySpec = {
  ...publicUrlsSpec,
  trustProxy: env.bool('TRUST_PROXY', false),
};

/** The REST edge: authenticates, checks scopes, validates, forwards over the bus, renders problems. */
export const apiGatewayApp: AppDefinition = {
  name: 'api-gateway',
  config: gatewaySpec,
  module: () => GatewayModule.register(),
  fastify: (context) => ({ trustProxy: loadConfig(gatewaySpec, context.env).trustProxy }),
  configure(app, context) {
    const config = loadConfig(gatewaySpec, context.env);
    app.setGlobalPrefix(API_PREFIX, { exclude: ['healthz', 'readyz', 'metrics', 'problems/:slug'] });
    acceptJsonOnly(app.getHttpAdapter().getInstance(), `/${API_PREFIX}/`, config.problemBase);
    serveOpenApi(app, buildOpenApiDocument(app, config.publicBaseUrl));
  },
};
