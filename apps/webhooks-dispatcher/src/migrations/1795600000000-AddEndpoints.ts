import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints. Signing secrets are kept sealed (AES-256-GCM under WEBHOOK_SECRET_KEY);
 * after a rotation the previous secret keeps signing until previous_secret_expires_at.
 */
export class AddEndpoints1795600000000 implements MigrationInterface {
  name = 'AddEndpoints1795600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "webhooks"."endpoints" (
        "id" uuid PRIMARY KEY,
        "organization_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "url" text NOT NULL,
        "description" text NOT NULL DEFAULT '',
        "event_types" text[] NOT NULL,
        "secret" text NOT NULL,
        "previous_secret" text NULL,
        "previous_secret_expires_at" timestamptz NULL,
        "paused" boolean NOT NULL DEFAULT false,
        "paused_reason" text NULL,
        "paused_at" timestamptz NULL,
        "consecutive_failures" integer NOT NULL DEFAULT 0,
        "last_success_at" timestamptz NULL,
        "last_failure_at" timestamptz NULL,
        "created_at" timestamptz(3) NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "endpoints_paused_check" CHECK ("paused" = ("paused_reason" IS NOT NULL) AND "paused" = ("paused_at" IS NOT NULL)),
        CONSTRAINT "endpoints_previous_secret_check" CHECK (("previous_secret" IS NULL) = ("previous_secret_expires_at" IS NULL))
      )`);
    await runner.query(
      `CREATE INDEX "endpoints_owner_created_idx" ON "webhooks"."endpoints" ("organization_id", "livemode", "created_at", "id")`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "webhooks"."endpoints"`);
  }
}
