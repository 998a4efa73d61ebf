import { outboxRetentionSql } from '#libs/bus';
import { retentionLeaseSql, sqlMigration } from '#libs/persistence';

/** The retention job's lease, and the indexes its deletes read: sent sandbox messages by age, old outbox rows and processed ids. */
export const Retention1796450000000 = sqlMigration(
  'Retention1796450000000',
  retentionLeaseSql('reminders'),
  outboxRetentionSql('reminders'),
  {
    up: [`CREATE INDEX "messages_sandbox_sent_idx" ON "reminders"."messages" ("sent_at") WHERE NOT "livemode" AND "status" = 'sent'`],
    down: [`DROP INDEX "reminders"."messages_sandbox_sent_idx"`],
  },
);
