import { sqlMigration } from '#libs/persistence';

/** Finds an organization's emails of the last day to one address (the per-recipient allowance, docs/decisions.md "Email"). */
export const EmailsRecipientIndex1796800000000 = sqlMigration('EmailsRecipientIndex1796800000000', {
  up: [`CREATE INDEX "emails_recipient_idx" ON "reminders"."emails" ("organization_id", lower("to_address"), "created_at")`],
  down: [`DROP INDEX "reminders"."emails_recipient_idx"`],
});
