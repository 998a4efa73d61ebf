import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What reminders need of the signups-service's data, built from its events: each signup's
 * title, time, status and link, and each participant's name and phone. as_of is the time of
 * the event a row reflects: an older event never overwrites a newer one, whatever the order
 * of delivery.
 */
export class AddContactsProjection1795800000000 implements MigrationInterface {
  name = 'AddContactsProjection1795800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "reminders"."signups" (
        "id" uuid PRIMARY KEY,
        "organization_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "title" text NOT NULL,
        "event_date" timestamptz NOT NULL,
        "status" text NOT NULL,
        "public_url" text NOT NULL,
        "deleted" boolean NOT NULL DEFAULT false,
        "as_of" timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE "reminders"."contacts" (
        "participant_id" uuid PRIMARY KEY,
        "signup_id" uuid NOT NULL,
        "organization_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "name" text NOT NULL,
        "phone" text NULL,
        "active" boolean NOT NULL,
        "as_of" timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX "contacts_signup_idx" ON "reminders"."contacts" ("signup_id") WHERE "active" AND "phone" IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "reminders"."contacts"`);
    await runner.query(`DROP TABLE "reminders"."signups"`);
  }
}
