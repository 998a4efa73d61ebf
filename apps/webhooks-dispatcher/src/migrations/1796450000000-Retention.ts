import { outboxRetentionSql } from '#libs/bus';
import { retentionLeaseSql, sqlMigration } from '#libs/persistence';

/** The retention job's lease, and the indexes its deletes read: finished deliveries by age, old outbox rows and processed ids. */
export const Retention1796450000000 = sqlMigration(
  'Retention1796450000000',
  retentionLeaseSql('webhooks'),
  outboxRetentionSql('webhooks'),
  {
    up: [`CREATE INDEX "deliveries_finished_created_idx" ON "webhooks"."deliveries" ("created_at") WHERE "status" <> 'pending'`],
    down: [`DROP INDEX "webhooks"."deliveries_finished_created_idx"`],
  },
);
