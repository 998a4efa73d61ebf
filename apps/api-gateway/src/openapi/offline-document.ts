import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { InProcessBus } from '#libs/bus';
import { type Env, loadConfig } from '#libs/config';
import { createLogger, Metrics } from '#libs/observability';
import { type AppContext, RuntimeModule } from '#libs/runtime';
import { type GatewayConfig, gatewaySpec } from '../gateway.config.js';
import { GatewayModule } from '../gateway.module.js';
import { useApiPrefix } from '../http/api-prefix.js';
import { buildOpenApiDocument } from './openapi.js';

@Module({})
class OfflineRoot {}

/**
 * The document the gateway serves at /api/v1/openapi.json, built without a server: Nest's preview
 * mode reads the same modules' controllers and instantiates no provider, so nothing connects to a
 * database, the bus or Redis (the client's types are generated from it).
 */
export async function buildOpenApiDocumentOffline(env: Env = {}): Promise<OpenAPIObject> {
  const logger = createLogger('api-gateway', 'silent');
  const context: AppContext<GatewayConfig> = {
    name: 'api-gateway',
    logger,
    metrics: new Metrics('api-gateway'),
    bus: new InProcessBus(logger),
    dataSource: new DataSource({ type: 'postgres' }),
    config: loadConfig(gatewaySpec, env),
  };
  const app = await NestFactory.create(
    { module: OfflineRoot, imports: [RuntimeModule.forApp(context), GatewayModule.register(context)] },
    new FastifyAdapter(),
    { preview: true, logger: false },
  );
  useApiPrefix(app);
  const document = buildOpenApiDocument(app, context.config.publicBaseUrl);
  await app.close();
  return document;
}
