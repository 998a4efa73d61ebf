import type { DataSourceSpec } from '#libs/persistence';
import { serving, type AppDefinition } from '#libs/runtime';
import { EndpointsHandlers } from './endpoints/endpoints.handlers.js';
import { EndpointsModule } from './endpoints/endpoints.module.js';
import { InitWebhooks1795314237764 } from './migrations/1795314237764-InitWebhooks.js';
import { AddEndpoints1795600000000 } from './migrations/1795600000000-AddEndpoints.js';
import { WEBHOOKS_SCHEMA } from './schema.js';
import { webhooksSpec } from './webhooks.config.js';

export const webhooksDataSourceSpec: DataSourceSpec = {
  schema: WEBHOOKS_SCHEMA,
  entities: [],
  migrations: [InitWebhooks1795314237764, AddEndpoints1795600000000],
};

/** The webhooks-dispatcher: manages webhook endpoints (webhooks.* on the bus), signs and sends webhooks. */
export const webhooksDispatcherApp: AppDefinition = {
  name: 'webhooks-dispatcher',
  config: webhooksSpec,
  database: webhooksDataSourceSpec,
  module: () => ({ module: EndpointsModule }),
  serve: serving('webhooks', (app) => app.get(EndpointsHandlers).handlers()),
};
