import 'reflect-metadata';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { listenSpec, loadConfig, publicUrlsSpec } from '#libs/config';
import { Metrics, REQUEST_ID_HEADER, createLogger, installHttpObservability, requestIdOptions } from '#libs/observability';
import { migrate } from '#libs/persistence';
import { ProblemFilter, sendProblem, toProblem } from '#libs/problem';
import type { AppContext, AppDefinition } from './app-definition.js';
import type { Infrastructure } from './infrastructure.js';
import { instrumentBus } from './instrumented-bus.js';
import { Outbox } from './outbox.js';
import { NestPinoLogger } from './nest-logger.js';
import { RuntimeModule } from './runtime.module.js';

export interface RunningApp {
  name: string;
  app: INestApplication;
  /** The origin the app listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  context: AppContext;
  /** Stops serving the bus, drains HTTP, stops the relay, closes the database; safe to call twice. */
  close(): Promise<void>;
}

@Module({})
class AppRoot {}

const BODY_LIMIT_BYTES = 1_048_576;
/** Path parameters longer than this are refused by the router (a problem, never a raw error). */
const MAX_PARAM_LENGTH = 512;

/** Boots one app on the given adapters: schema migrated, HTTP listening, bus handlers served. */
export async function bootApp(definition: AppDefinition, infrastructure: Infrastructure): Promise<RunningApp> {
  const { env } = infrastructure;
  const logger = createLogger(definition.name, infrastructure.logLevel);
  const metrics = new Metrics(definition.name);
  if (definition.config) loadConfig(definition.config, env);
  const { problemBase } = loadConfig(publicUrlsSpec, env);
  const { port, host } = loadConfig(listenSpec(definition.name), env);

  let dataSource: DataSource | undefined;
  if (definition.database) {
    dataSource = infrastructure.dataSource(definition.database);
    await dataSource.initialize();
    await migrate(dataSource);
  }
  const bus = instrumentBus(infrastructure.bus, metrics);
  const { database } = definition;
  const outbox = dataSource && database && database.outbox !== false ? new Outbox(dataSource, database.schema, definition.name, bus, logger) : undefined;
  const context: AppContext = { name: definition.name, logger, metrics, bus, dataSource, outbox, redisUrl: infrastructure.redisUrl, env };

  const adapter = new FastifyAdapter({
    ...requestIdOptions,
    bodyLimit: BODY_LIMIT_BYTES,
    maxParamLength: MAX_PARAM_LENGTH,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      sendProblem(reply, toProblem(error), problemBase, request.id);
    },
    ...definition.fastify?.(context),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    { module: AppRoot, imports: [RuntimeModule.forApp(context), definition.module(context)] },
    adapter,
    { logger: new NestPinoLogger(logger) },
  );
  app.useGlobalFilters(new ProblemFilter(problemBase, logger));
  installHttpObservability(app.getHttpAdapter().getInstance(), logger, metrics);
  await definition.configure?.(app, context);
  await app.listen(port, host);
  outbox?.start();
  const served = definition.serve
    ? await bus.serve(definition.serve.owner, definition.serve.handlers(app) as never)
    : undefined;
  await definition.start?.(app, context);
  const address = app.getHttpServer().address() as { port: number };
  logger.info({ port: address.port, host }, `${definition.name} listening`);

  let closing: Promise<void> | undefined;
  return {
    name: definition.name,
    app,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    context,
    close() {
      closing ??= (async () => {
        await served?.stop();
        await app.close();
        await outbox?.stop();
        await dataSource?.destroy();
      })();
      return closing;
    },
  };
}
