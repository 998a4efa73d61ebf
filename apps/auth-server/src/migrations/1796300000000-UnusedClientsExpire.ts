import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Registered clients expire once unused for 30 days: those from before count from now. */
export class UnusedClientsExpire1796300000000 implements MigrationInterface {
  name = 'UnusedClientsExpire1796300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      `UPDATE "auth"."oauth_store" SET "expires_at" = now() + interval '30 days' WHERE "model" = 'Client' AND "expires_at" IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`UPDATE "auth"."oauth_store" SET "expires_at" = NULL WHERE "model" = 'Client'`);
  }
}
