import type { DynamicModule, INestApplication } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Bus } from '#libs/bus';
import type { AppName, ConfigOf, ConfigSpec } from '#libs/config';
import { authorized, type HandlersOf, type ServiceName } from '#libs/contracts';
import type { Logger, Metrics } from '#libs/observability';
import type { DataSourceSpec, PruneRule } from '#libs/persistence';
import type { Outbox } from './outbox.js';

/** What every app receives: its adapters, chosen by the run mode, and its settings C. */
export interface AppContext<C = unknown> {
  name: AppName;
  logger: Logger;
  metrics: Metrics;
  bus: Bus;
  /** The app's own DataSource, migrated, when the app owns a schema. */
  dataSource?: DataSource;
  /** The app's transactional outbox, when the app owns a schema. */
  outbox?: Outbox;
  /** Redis URL in services mode; undefined selects in-memory adapters. */
  redisUrl?: string;
  /** The app's own settings (AppDefinition.config), read and validated once at boot; also injectable as APP_CONFIG. */
  config: C;
}

/** The bus subjects an app serves, with handlers taken from its Nest app once it is built. */
export interface Serving {
  owner: ServiceName;
  handlers(app: INestApplication): Record<string, (req: never) => Promise<unknown>>;
}

/** Serves the owner's subjects, each handler behind the check of its subject's catalog entry (authorized). */
export function serving<O extends ServiceName>(owner: O, handlers: (app: INestApplication) => HandlersOf<O>): Serving {
  return { owner, handlers: (app) => authorized(handlers(app)) };
}

/** One deployable app: its settings S, its schema, its Nest module, and work to start after it listens. */
export interface AppDefinition<S extends ConfigSpec = ConfigSpec> {
  name: AppName;
  /** The app's own environment variables, validated with the common ones before anything connects; the context carries them read. */
  config?: S;
  /** Tables this app owns; omitted for apps without a schema (mcp-server). */
  database?: DataSourceSpec;
  module(context: AppContext<ConfigOf<S>>): DynamicModule;
  /** Bus subjects served from start (queue group = owner) until shutdown, when they stop first. */
  serve?: Serving;
  /**
   * Old rows of the app's own tables that the retention job deletes (docs/decisions.md,
   * "Retention"), besides the outbox's, which every schema with an outbox gets.
   */
  retention?(context: AppContext<ConfigOf<S>>): PruneRule[];
  /** Runs before the HTTP listener starts (global prefix, OpenAPI, extra routes). */
  configure?(app: INestApplication, context: AppContext<ConfigOf<S>>): void | Promise<void>;
  /** Runs after the HTTP listener is up (serve bus subjects, start relays and consumers). */
  start?(app: INestApplication, context: AppContext<ConfigOf<S>>): Promise<void>;
  /** Fastify options beyond the defaults (e.g. trustProxy at the edge). */
  fastify?(context: AppContext<ConfigOf<S>>): Record<string, unknown>;
}
