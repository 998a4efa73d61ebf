import type { MigrationInterface, QueryRunner } from 'typeorm';
import { outboxMigrationSql } from '#libs/bus';

const outbox = outboxMigrationSql('signups');

/** The signups table, its list index and the outbox of the signups schema. */
export class CreateSignups1795314296671 implements MigrationInterface {
  name = 'CreateSignups1795314296671';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "signups"."signups" (
        "id" uuid PRIMARY KEY,
        "organization_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "slug" text NOT NULL,
        "title" text NOT NULL,
        "description" text NULL,
        "status" text NOT NULL DEFAULT 'draft',
        "event_date" timestamptz NOT NULL,
        "location" text NULL,
        "max_participants" integer NULL,
        "requires_phone" boolean NOT NULL DEFAULT false,
        "signup_close_date" timestamptz NULL,
        "participant_count" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "published_at" timestamptz NULL,
        "closed_at" timestamptz NULL,
        CONSTRAINT "signups_slug_key" UNIQUE ("slug"),
        CONSTRAINT "signups_status_check" CHECK ("status" IN ('draft', 'published', 'closed')),
        CONSTRAINT "signups_published_at_check" CHECK (("status" = 'draft') = ("published_at" IS NULL)),
        CONSTRAINT "signups_closed_at_check" CHECK (("status" = 'closed') = ("closed_at" IS NOT NULL)),
        CONSTRAINT "signups_max_participants_check" CHECK ("max_participants" >= 1),
        CONSTRAINT "signups_participant_count_check" CHECK ("participant_count" >= 0)
      )`);
    await runner.query(`
      CREATE INDEX "signups_owner_event_date_idx"
        ON "signups"."signups" ("organization_id", "livemode", "event_date" DESC, "id" DESC)`);
    for (const sql of outbox.up) await runner.query(sql);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const sql of outbox.down) await runner.query(sql);
    await runner.query('DROP TABLE "signups"."signups"');
  }
}
