import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reminder passes:
 * - messages: one row per text claimed for a signup. A row is claimed ('sending') before the
 *   provider is called and becomes 'sent'; a failed or unattempted claim is deleted, so its
 *   participant stays eligible. One per participant and one per phone number per signup: two
 *   passes at once cannot both claim a person. Sandbox rows are the outbox.
 * - daily_sms: texts sent per organization per UTC day, against the tier's ceiling.
 * - opt_outs: numbers that replied STOP (START removes them).
 * - signups.auto_pass_for: the event date the automatic pass ran for; auto_pass_lease: while a
 *   replica runs it.
 */
export class AddReminderPasses1795900000000 implements MigrationInterface {
  name = 'AddReminderPasses1795900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "reminders"."messages" (
        "id" uuid PRIMARY KEY,
        "signup_id" uuid NOT NULL,
        "participant_id" uuid NOT NULL,
        "organization_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "phone" text NOT NULL,
        "body" text NOT NULL,
        "trigger" text NOT NULL CHECK ("trigger" IN ('manual', 'automatic')),
        "status" text NOT NULL CHECK ("status" IN ('sending', 'sent')),
        "provider_message_id" text NULL,
        "claimed_at" timestamptz NOT NULL DEFAULT now(),
        "sent_at" timestamptz NULL,
        CONSTRAINT "messages_signup_participant_key" UNIQUE ("signup_id", "participant_id"),
        CONSTRAINT "messages_signup_phone_key" UNIQUE ("signup_id", "phone")
      )`);
    await runner.query(`
      CREATE TABLE "reminders"."daily_sms" (
        "organization_id" text NOT NULL,
        "day" date NOT NULL,
        "sent" integer NOT NULL DEFAULT 0 CHECK ("sent" >= 0),
        PRIMARY KEY ("organization_id", "day")
      )`);
    await runner.query(`
      CREATE TABLE "reminders"."opt_outs" (
        "phone" text PRIMARY KEY,
        "opted_out_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(
      `ALTER TABLE "reminders"."signups" ADD COLUMN "auto_pass_for" timestamptz NULL, ADD COLUMN "auto_pass_lease" timestamptz NULL`,
    );
    await runner.query(
      `CREATE INDEX "signups_upcoming_idx" ON "reminders"."signups" ("event_date") WHERE "status" = 'published' AND NOT "deleted"`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "reminders"."signups_upcoming_idx"`);
    await runner.query(`ALTER TABLE "reminders"."signups" DROP COLUMN "auto_pass_lease", DROP COLUMN "auto_pass_for"`);
    await runner.query(`DROP TABLE "reminders"."opt_outs"`);
    await runner.query(`DROP TABLE "reminders"."daily_sms"`);
    await runner.query(`DROP TABLE "reminders"."messages"`);
  }
}
