import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One delivery per event and endpoint (the webhook-id is the event id), deleted with its
 * endpoint. Workers claim due attempts with FOR UPDATE SKIP LOCKED and hold them until
 * locked_until, so no attempt runs twice at once. failing_since marks when an endpoint's
 * current run of failures began (pausing after 5 days of failures only). created_at keeps
 * milliseconds only, so a list cursor (an ISO time) names a row's time exactly.
 */
export class AddDeliveries1795600000001 implements MigrationInterface {
  name = 'AddDeliveries1795600000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE "webhooks"."endpoints" ADD COLUMN "failing_since" timestamptz NULL`);
    await runner.query(`
      CREATE TABLE "webhooks"."deliveries" (
        "id" uuid PRIMARY KEY,
        "endpoint_id" uuid NOT NULL REFERENCES "webhooks"."endpoints" ("id") ON DELETE CASCADE,
        "event_id" text NOT NULL,
        "event_type" text NOT NULL,
        "payload" text NOT NULL,
        "status" text NOT NULL,
        "attempt_count" integer NOT NULL DEFAULT 0,
        "next_attempt_at" timestamptz NULL,
        "locked_until" timestamptz NULL,
        "claim_id" uuid NULL,
        "last_response_status" integer NULL,
        "error_message" text NULL,
        "created_at" timestamptz(3) NOT NULL DEFAULT now(),
        "delivered_at" timestamptz NULL,
        CONSTRAINT "deliveries_status_check" CHECK ("status" IN ('pending', 'succeeded', 'failed', 'skipped')),
        CONSTRAINT "deliveries_pending_check" CHECK (("status" = 'pending') = ("next_attempt_at" IS NOT NULL)),
        CONSTRAINT "deliveries_event_endpoint_key" UNIQUE ("endpoint_id", "event_id")
      )`);
    await runner.query(`CREATE INDEX "deliveries_due_idx" ON "webhooks"."deliveries" ("next_attempt_at") WHERE "status" = 'pending'`);
    await runner.query(`CREATE INDEX "deliveries_endpoint_created_idx" ON "webhooks"."deliveries" ("endpoint_id", "created_at", "id")`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "webhooks"."deliveries"`);
    await runner.query(`ALTER TABLE "webhooks"."endpoints" DROP COLUMN "failing_since"`);
  }
}
