import { sqlMigration } from '#libs/persistence';

/**
 * The signup of each participant the mail consumer keeps a state for, so an edit of the signup or
 * of a slot finds the participants that were told something of it (docs/decisions.md,
 * "Participant email"). Rows made before are filled from the contacts projection; one it does not
 * know stays without a signup until its participant's next event.
 */
export const MailStateSignup1796780000000 = sqlMigration('MailStateSignup1796780000000', {
  up: [
    `ALTER TABLE "reminders"."mail_state" ADD COLUMN "signup_id" uuid NULL`,
    `UPDATE "reminders"."mail_state" m SET "signup_id" = c."signup_id"
       FROM "reminders"."contacts" c WHERE c."participant_id" = m."participant_id"`,
    `CREATE INDEX "mail_state_signup" ON "reminders"."mail_state" ("signup_id", "participant_id") WHERE "fingerprint" IS NOT NULL`,
  ],
  down: [`DROP INDEX "reminders"."mail_state_signup"`, `ALTER TABLE "reminders"."mail_state" DROP COLUMN "signup_id"`],
});
