import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Email verification and password reset. Users get `email_verified_at`; those who signed up
 * before it are counted as verified (grandfathered): they created their keys and connected their
 * apps when nothing asked for a verified address, and taking those abilities away at a deploy
 * would break what they run for an address nobody doubted. The links' tokens are kept as their
 * SHA-256 with their purpose and expiry. Ending a user's OAuth provider sessions at a reset finds
 * them by account through an index of their own.
 */
export class AccountEmail1796760000000 implements MigrationInterface {
  name = 'AccountEmail1796760000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "auth"."users" ADD COLUMN "email_verified_at" timestamptz`);
    await runner.query(`UPDATE "auth"."users" SET "email_verified_at" = "created_at"`);
    await runner.query(`
      CREATE TABLE "auth"."account_tokens" (
        "id" text PRIMARY KEY,
        "user_id" text NOT NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "purpose" text NOT NULL CHECK ("purpose" IN ('verify_email', 'reset_password')),
        "expires_at" timestamptz NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX "account_tokens_user_id_idx" ON "auth"."account_tokens" ("user_id", "purpose")`);
    await runner.query(`CREATE INDEX "account_tokens_expires_at_idx" ON "auth"."account_tokens" ("expires_at")`);
    await runner.query(
      `CREATE INDEX "oauth_store_session_account_idx" ON "auth"."oauth_store" (("payload" ->> 'accountId')) WHERE "model" = 'Session'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "auth"."oauth_store_session_account_idx"`);
    await runner.query(`DROP TABLE "auth"."account_tokens"`);
    await runner.query(`ALTER TABLE "auth"."users" DROP COLUMN "email_verified_at"`);
  }
}
