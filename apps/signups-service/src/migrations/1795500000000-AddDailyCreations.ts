import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signups each organization created per UTC day: the daily cap counts here, in the transaction
 * that creates the signup, so a creation that fails never counts and deleting a signup gives
 * nothing back.
 */
export class AddDailyCreations1795500000000 implements MigrationInterface {
  name = 'AddDailyCreations1795500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "signups"."daily_creations" (
        "organization_id" text NOT NULL,
        "day" date NOT NULL,
        "count" integer NOT NULL,
        PRIMARY KEY ("organization_id", "day"),
        CONSTRAINT "daily_creations_count_check" CHECK ("count" >= 1)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "signups"."daily_creations"`);
  }
}
