import type { MigrationInterface, QueryRunner } from 'typeorm';

/** oidc-provider's store (one table for every model) and the provider's persisted keys. */
export class AddOAuthStore1795319801201 implements MigrationInterface {
  name = 'AddOAuthStore1795319801201';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "auth"."oauth_store" (
        "model" text NOT NULL,
        "id" text NOT NULL,
        "payload" jsonb NOT NULL,
        "grant_id" text,
        "user_code" text,
        "uid" text,
        "expires_at" timestamptz,
        "consumed_at" timestamptz,
        PRIMARY KEY ("model", "id")
      )`);
    await runner.query(`CREATE INDEX "oauth_store_grant_id_idx" ON "auth"."oauth_store" ("grant_id")`);
    await runner.query(`CREATE INDEX "oauth_store_user_code_idx" ON "auth"."oauth_store" ("user_code")`);
    await runner.query(`CREATE INDEX "oauth_store_uid_idx" ON "auth"."oauth_store" ("uid")`);
    await runner.query(`CREATE INDEX "oauth_store_expires_at_idx" ON "auth"."oauth_store" ("expires_at")`);
    await runner.query(`
      CREATE TABLE "auth"."oauth_keys" (
        "id" text PRIMARY KEY,
        "value" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "auth"."oauth_keys"`);
    await runner.query(`DROP TABLE "auth"."oauth_store"`);
  }
}
