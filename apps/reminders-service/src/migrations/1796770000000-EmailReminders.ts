import { sqlMigration } from '#libs/persistence';

/**
 * Email reminders (docs/decisions.md, "Email reminders"): `reminded_addresses` keeps each address
 * reminded of a signup by email, as an HMAC of it (the emails themselves go after the retention
 * period), so nobody gets a second reminder of a signup; the index finds a signup's addresses to remind.
 */
export const EmailReminders1796770000000 = sqlMigration('EmailReminders1796770000000', {
  up: [
    `CREATE TABLE "reminders"."reminded_addresses" (
      "signup_id" uuid NOT NULL,
      "address_key" text NOT NULL,
      "participant_id" uuid NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("signup_id", "address_key")
    )`,
    `CREATE INDEX "contacts_signup_email_idx" ON "reminders"."contacts" ("signup_id") WHERE "active" AND "email" IS NOT NULL`,
  ],
  down: [`DROP INDEX "reminders"."contacts_signup_email_idx"`, `DROP TABLE "reminders"."reminded_addresses"`],
});
