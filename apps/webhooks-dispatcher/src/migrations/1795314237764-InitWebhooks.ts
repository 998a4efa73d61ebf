import { outboxMigration } from '#libs/bus';

/** The webhooks schema starts with its outbox. */
export const InitWebhooks1795314237764 = outboxMigration('InitWebhooks1795314237764', 'webhooks');
