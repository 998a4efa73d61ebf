import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency records: one per scope and key, found by a hash of both. The answer is kept
 * encrypted with a key derived from the Idempotency-Key itself, which the table never holds.
 */
export class CreateIdempotencyKeys1795500000000 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1795500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "gateway"."idempotency_keys" (
        "id" text PRIMARY KEY,
        "fingerprint" text NOT NULL,
        "state" text NOT NULL,
        "claim" uuid NOT NULL,
        "locked_until" timestamptz NULL,
        "status" integer NULL,
        "response" bytea NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "idempotency_keys_state_check" CHECK ("state" IN ('running', 'completed')),
        CONSTRAINT "idempotency_keys_completed_check" CHECK ("state" = 'running' OR ("status" IS NOT NULL AND "response" IS NOT NULL))
      )`);
    await runner.query(`CREATE INDEX "idempotency_keys_expires_idx" ON "gateway"."idempotency_keys" ("expires_at")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "gateway"."idempotency_keys"`);
  }
}
