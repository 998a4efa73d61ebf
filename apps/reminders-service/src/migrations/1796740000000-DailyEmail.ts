import { sqlMigration } from '#libs/persistence';

/** Emails to participants of live signups per organization and UTC day, against the tier's ceiling (emailsPerDay). */
export const DailyEmail1796740000000 = sqlMigration('DailyEmail1796740000000', {
  up: [
    `CREATE TABLE "reminders"."daily_email" (
      "organization_id" text NOT NULL,
      "day" date NOT NULL,
      "sent" integer NOT NULL DEFAULT 0 CHECK ("sent" >= 0),
      PRIMARY KEY ("organization_id", "day")
    )`,
  ],
  down: [`DROP TABLE "reminders"."daily_email"`],
});
