import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The connected-apps page lists a user's grants: index the Grant rows by their account. */
export class IndexGrantsByAccount1795400000000 implements MigrationInterface {
  name = 'IndexGrantsByAccount1795400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `CREATE INDEX "oauth_store_grant_account_idx" ON "auth"."oauth_store" (("payload"->>'accountId')) WHERE "model" = 'Grant'`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX "auth"."oauth_store_grant_account_idx"`);
  }
}
