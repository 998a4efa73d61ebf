import { sqlMigration } from '#libs/persistence';

/**
 * How recent the context of the last message each participant was sent is (docs/decisions.md,
 * "Participant email"): a message made from an older context is not sent after it. Rows from before
 * have none: the next message sets it.
 */
export const MailStateAsOf1796790000000 = sqlMigration('MailStateAsOf1796790000000', {
  up: [`ALTER TABLE "reminders"."mail_state" ADD COLUMN "told_as_of" timestamptz NULL`],
  down: [`ALTER TABLE "reminders"."mail_state" DROP COLUMN "told_as_of"`],
});
