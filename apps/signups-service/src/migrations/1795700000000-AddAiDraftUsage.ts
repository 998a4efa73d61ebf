import type { MigrationInterface, QueryRunner } from 'typeorm';

/** AI drafts each organization used per calendar month (UTC): the monthly quota counts here. */
export class AddAiDraftUsage1795700000000 implements MigrationInterface {
  name = 'AddAiDraftUsage1795700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "signups"."ai_draft_usage" (
        "organization_id" text NOT NULL,
        "month" date NOT NULL,
        "count" integer NOT NULL,
        PRIMARY KEY ("organization_id", "month"),
        CONSTRAINT "ai_draft_usage_count_check" CHECK ("count" >= 1)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "signups"."ai_draft_usage"`);
  }
}
