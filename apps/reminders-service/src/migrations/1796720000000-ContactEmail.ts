import { sqlMigration } from '#libs/persistence';

/** A contact keeps its participant's email address too: email reminders go to it. Rows before this get theirs from their next event. */
export const ContactEmail1796720000000 = sqlMigration('ContactEmail1796720000000', {
  up: [`ALTER TABLE "reminders"."contacts" ADD COLUMN "email" text NULL`],
  down: [`ALTER TABLE "reminders"."contacts" DROP COLUMN "email"`],
});
