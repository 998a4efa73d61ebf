import { Module } from '@nestjs/common';
import type { AppDefinition } from '#libs/runtime';
import { InitWebhooks1795314237764 } from './migrations/1795314237764-InitWebhooks.js';

@Module({})
class WebhooksModule {}

/** The webhooks-dispatcher: signs and delivers webhooks; endpoints and deliveries come with their issue. */
export const webhooksDispatcherApp: AppDefinition = {
  name: 'webhooks-dispatcher',
  database: { schema: 'webhooks', entities: [], migrations: [InitWebhooks1795314237764] },
  module: () => ({ module: WebhooksModule }),
};
