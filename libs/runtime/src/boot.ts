import 'reflect-metadata';
import { type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import { type ConfigOf, type ConfigSpec, type HttpTimeouts, listenSpec, loadConfig, loadHttpTimeouts, publicUrlsSpec } from '#libs/config';
import { createLogger, installHttpObservability, Metrics, REQUEST_ID_HEADER, requestIdOptions } from '#libs/observability';
import { migrate } from '#libs/persistence';
import { ProblemFilter, sendProblem, toProblem } from '#libs/problem';
import type { AppContext, AppDefinition } from './app-definition.js';
import type { Infrastructure } from './infrastructure.js';
import { instrumentBus } from './instrumented-bus.js';
import { useJsonBodyReader } from './json-body.js';
import { NestPinoLogger } from './nest-logger.js';
import { ShutdownState } from './ops.controller.js';
import { Outbox } from './outbox.js';
import { loadRetention, outboxPruneRules, RetentionJob } from './retention.js';
import { RuntimeModule } from './runtime.module.js';

export interface RunningApp {
  name: string;
  app: INestApplication;
  /** The origin the app listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  context: AppContext;
  /**
   * Marks the app as shutting down: /readyz answers 503 and every HTTP response closes its
   * connection, while requests, bus subjects, consumers and the relay are all still served.
   */
  beginShutdown(): void;
  /**
   * Shuts down (beginning with beginShutdown): stops taking bus requests (the queue group sends
   * them to other replicas) and HTTP connections, finishes the requests and handlers in flight
   * and sends their replies, then stops consumers and workers after their current message, the
   * relay after its current round, and closes Redis and the database. Safe to call twice.
   */
  close(): Promise<void>;
  /** The job that deletes the app's old rows, when it owns a schema (started with the app). */
  retention?: RetentionJob;
}

@Module({})
class AppRoot {}

const BODY_LIMIT_BYTES = 1_048_576;
/** Path parameters longer than this are refused by the router (a problem, never a raw error). */
const MAX_PARAM_LENGTH = 512;
/** While the HTTP server closes, how often connections that went idle since are closed. */
const IDLE_SWEEP_MS = 100;
/** The longest Node may go between two looks for requests past their timeouts (its own default is 30 s). */
const TIMEOUT_CHECK_MAX_MS = 1_000;

/**
 * The listener's timeouts (docs/decisions.md, "Slow clients"). Node looks for late requests every
 * tenth of the headers timeout (every second at most), so a slow client is cut soon after its time.
 * No idle-socket timeout (Fastify's connectionTimeout): a request whose answer takes minutes (an AI
 * draft, a reminder pass) sends nothing while it waits, and the request timeout already bounds the
 * client's side.
 */
function timeoutOptions({ headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs }: HttpTimeouts) {
  return {
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionTimeout: 0,
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MAX_MS, Math.ceil(headersTimeoutMs / 10)),
    },
  };
}

/**
 * Once shutdown began, every response closes its connection: clients reconnect (through the load
 * balancer, to another replica) instead of keeping a connection to this one alive.
 */
function closeConnectionsWhenShuttingDown(fastify: FastifyInstance, shutdown: ShutdownState): void {
  fastify.addHook(
    'onSend',
    (_request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
      if (shutdown.shuttingDown && !reply.raw.headersSent) reply.header('connection', 'close');
      done(null, payload);
    },
  );
}

/**
 * Stops accepting connections and waits for the requests in flight. A keep-alive connection whose
 * request ends during the close would otherwise stay open until its keep-alive timeout
 * (HTTP_KEEP_ALIVE_TIMEOUT_MS) and hold the close: those are closed as soon as they are idle.
 */
async function closeHttp(fastify: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => fastify.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await fastify.close();
  } finally {
    clearInterval(sweep);
  }
}

/** Boots one app on the given adapters: schema migrated, HTTP listening, bus handlers served. */
export async function bootApp<S extends ConfigSpec>(definition: AppDefinition<S>, infrastructure: Infrastructure): Promise<RunningApp> {
  const { env } = infrastructure;
  const logger = createLogger(definition.name, infrastructure.logLevel);
  const metrics = new Metrics(definition.name);
  // An app without settings of its own gets none.
  const config = definition.config ? loadConfig(definition.config, env) : ({} as ConfigOf<S>);
  const { problemBase } = loadConfig(publicUrlsSpec, env);
  const { port, host } = loadConfig(listenSpec(definition.name), env);
  const timeouts = loadHttpTimeouts(env);
  const retentionConfig = definition.database ? loadRetention(env) : undefined;

  let dataSource: DataSource | undefined;
  if (definition.database) {
    dataSource = infrastructure.dataSource(definition.database);
    await dataSource.initialize();
    await migrate(dataSource);
  }
  const bus = instrumentBus(infrastructure.bus, metrics, logger);
  const { database } = definition;
  const outbox =
    dataSource && database && database.outbox !== false
      ? new Outbox(dataSource, database.schema, definition.name, bus, logger, metrics)
      : undefined;
  const context: AppContext<ConfigOf<S>> = {
    name: definition.name,
    logger,
    metrics,
    bus,
    dataSource,
    outbox,
    redisUrl: infrastructure.redisUrl,
    config,
  };
  const shutdown = new ShutdownState();
  const retention =
    dataSource && database && retentionConfig
      ? new RetentionJob(
          dataSource,
          database.schema,
          [...(outbox ? outboxPruneRules(retentionConfig) : []), ...(definition.retention?.(context) ?? [])],
          retentionConfig,
          logger,
        )
      : undefined;

  const adapter = new FastifyAdapter({
    ...requestIdOptions,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A request that reaches the app while it closes is served, not refused: its dependencies are still up.
    return503OnClosing: false,
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      sendProblem(reply, toProblem(error), problemBase, request.id);
    },
    ...definition.fastify?.(context),
    // Every listener, whatever the app asks.
    ...timeoutOptions(timeouts),
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    { module: AppRoot, imports: [RuntimeModule.forApp(context, shutdown), definition.module(context)] },
    adapter,
    { logger: new NestPinoLogger(logger) },
  );
  app.useGlobalFilters(new ProblemFilter(problemBase, logger));
  useJsonBodyReader(app);
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  installHttpObservability(fastify, logger, metrics);
  closeConnectionsWhenShuttingDown(fastify, shutdown);
  await definition.configure?.(app, context);
  await app.listen(port, host);
  outbox?.start();
  const served = definition.serve ? await bus.serve(definition.serve.owner, definition.serve.handlers(app) as never) : undefined;
  await definition.start?.(app, context);
  retention?.start();
  const address = app.getHttpServer().address() as { port: number };
  logger.info({ port: address.port, host }, `${definition.name} listening`);

  let closing: Promise<void> | undefined;
  return {
    name: definition.name,
    app,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    context,
    retention,
    beginShutdown() {
      shutdown.begin();
    },
    close() {
      closing ??= (async () => {
        shutdown.begin();
        // Both wait for their work in flight; the bus and the database stay up for it.
        await Promise.all([served?.stop(), closeHttp(fastify)]);
        // Nest's hooks: consumers and workers stop after their current message, Redis clients close.
        await app.close();
        await outbox?.stop();
        await retention?.stop();
        await dataSource?.destroy();
      })();
      return closing;
    },
  };
}
