import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A pass claims people first ('claimed', free again once the claim is older than the claim
 * lease, so a pass that died does not keep them from their reminder) and marks each one
 * 'sending' just before calling the provider: only those are never texted again. The automatic
 * pass's lease gets a token, so a replica finishes only the lease it holds.
 */
export class ClaimedReminders1795900000001 implements MigrationInterface {
  name = 'ClaimedReminders1795900000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "reminders"."messages" DROP CONSTRAINT "messages_status_check"`);
    await runner.query(
      `ALTER TABLE "reminders"."messages" ADD CONSTRAINT "messages_status_check" CHECK ("status" IN ('claimed', 'sending', 'sent'))`,
    );
    await runner.query(`ALTER TABLE "reminders"."signups" ADD COLUMN "auto_pass_lease_id" uuid NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "reminders"."signups" DROP COLUMN "auto_pass_lease_id"`);
    await runner.query(`DELETE FROM "reminders"."messages" WHERE "status" = 'claimed'`);
    await runner.query(`ALTER TABLE "reminders"."messages" DROP CONSTRAINT "messages_status_check"`);
    await runner.query(`ALTER TABLE "reminders"."messages" ADD CONSTRAINT "messages_status_check" CHECK ("status" IN ('sending', 'sent'))`);
  }
}
