import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Account page sessions, kept server-side so signing out ends them: each row the SHA-256 of a session cookie. */
export class AccountSessions1796200000000 implements MigrationInterface {
  name = 'AccountSessions1796200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "auth"."account_sessions" (
        "id" text PRIMARY KEY,
        "user_id" text NOT NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "expires_at" timestamptz NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX "account_sessions_user_id_idx" ON "auth"."account_sessions" ("user_id")`);
    await runner.query(`CREATE INDEX "account_sessions_expires_at_idx" ON "auth"."account_sessions" ("expires_at")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "auth"."account_sessions"`);
  }
}
