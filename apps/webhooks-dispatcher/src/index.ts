import type { DataSourceSpec } from '#libs/persistence';
import { type AppDefinition, hoursToSeconds, serving } from '#libs/runtime';
import { DeliveriesHandlers } from './deliveries/deliveries.handlers.js';
import { DeliveryWorker } from './deliveries/delivery-worker.js';
import { FanOut } from './deliveries/fan-out.js';
import { EndpointsHandlers } from './endpoints/endpoints.handlers.js';
import { EventsHandlers } from './events/events.handlers.js';
import { LogFrontier } from './events/log-frontier.js';
import { InitWebhooks1795314237764 } from './migrations/1795314237764-InitWebhooks.js';
import { AddEndpoints1795600000000 } from './migrations/1795600000000-AddEndpoints.js';
import { AddDeliveries1795600000001 } from './migrations/1795600000001-AddDeliveries.js';
import { OutboxTraceContext1796000000000 } from './migrations/1796000000000-OutboxTraceContext.js';
import { Retention1796450000000 } from './migrations/1796450000000-Retention.js';
import { EventLog1796810000000 } from './migrations/1796810000000-EventLog.js';
import { DeliveriesFillfactor1797100000000 } from './migrations/1797100000000-DeliveriesFillfactor.js';
import { WEBHOOKS_SCHEMA } from './schema.js';
import { webhooksSpec } from './webhooks.config.js';
import { WebhooksModule } from './webhooks.module.js';

export const webhooksDataSourceSpec: DataSourceSpec = {
  schema: WEBHOOKS_SCHEMA,
  entities: [],
  migrations: [
    InitWebhooks1795314237764,
    AddEndpoints1795600000000,
    AddDeliveries1795600000001,
    OutboxTraceContext1796000000000,
    Retention1796450000000,
    EventLog1796810000000,
    DeliveriesFillfactor1797100000000,
  ],
};

/**
 * The webhooks-dispatcher: manages webhook endpoints (webhooks.* on the bus), turns events into
 * deliveries, and signs, sends and retries them.
 */
export const webhooksDispatcherApp: AppDefinition<typeof webhooksSpec> = {
  name: 'webhooks-dispatcher',
  config: webhooksSpec,
  database: webhooksDataSourceSpec,
  module: () => ({ module: WebhooksModule }),
  // A delivery still pending (due or retrying) is never deleted, whatever its age.
  retention: ({ config }) => [
    {
      table: 'deliveries',
      key: ['id'],
      after: 'created_at',
      only: `"status" <> 'pending'`,
      retentionSeconds: hoursToSeconds(config.deliveriesRetentionHours),
    },
    { table: 'events', key: ['id'], after: 'created_at', retentionSeconds: hoursToSeconds(config.eventLogRetentionHours) },
  ],
  serve: serving('webhooks', (app) => ({
    ...app.get(EndpointsHandlers).handlers(),
    ...app.get(DeliveriesHandlers).handlers(),
    ...app.get(EventsHandlers).handlers(),
  })),
  async start(app) {
    await app.get(LogFrontier).check();
    await app.get(FanOut).start();
    app.get(DeliveryWorker).start();
  },
};
