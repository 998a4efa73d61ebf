import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Slots, items, participants and their selections. Each slot and item keeps its own count of
 * what is taken (taken, quantity_claimed) beside its limit, and the CHECKs make overbooking
 * impossible whatever the application does: allocations are conditional UPDATEs of that count.
 */
export class AddSlotsItemsParticipants1795316562081 implements MigrationInterface {
  name = 'AddSlotsItemsParticipants1795316562081';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "signups"."slots" (
        "id" uuid PRIMARY KEY,
        "signup_id" uuid NOT NULL REFERENCES "signups"."signups" ("id") ON DELETE CASCADE,
        "title" text NOT NULL,
        "description" text NULL,
        "start_time" timestamptz NULL,
        "end_time" timestamptz NULL,
        "capacity" integer NOT NULL,
        "taken" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "slots_capacity_check" CHECK ("capacity" >= 1),
        CONSTRAINT "slots_taken_check" CHECK ("taken" >= 0 AND "taken" <= "capacity"),
        CONSTRAINT "slots_time_order_check" CHECK ("end_time" >= "start_time")
      )`);
    await runner.query(`CREATE INDEX "slots_signup_created_idx" ON "signups"."slots" ("signup_id", "created_at", "id")`);

    await runner.query(`
      CREATE TABLE "signups"."items" (
        "id" uuid PRIMARY KEY,
        "signup_id" uuid NOT NULL REFERENCES "signups"."signups" ("id") ON DELETE CASCADE,
        "name" text NOT NULL,
        "notes" text NULL,
        "quantity_needed" integer NOT NULL,
        "quantity_claimed" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "items_quantity_needed_check" CHECK ("quantity_needed" >= 1),
        CONSTRAINT "items_quantity_claimed_check" CHECK ("quantity_claimed" >= 0 AND "quantity_claimed" <= "quantity_needed")
      )`);
    await runner.query(`CREATE INDEX "items_signup_created_idx" ON "signups"."items" ("signup_id", "created_at", "id")`);

    // created_at at millisecond precision, as the API renders it, keeps list cursors exact.
    await runner.query(`
      CREATE TABLE "signups"."participants" (
        "id" uuid PRIMARY KEY,
        "signup_id" uuid NOT NULL REFERENCES "signups"."signups" ("id") ON DELETE CASCADE,
        "name" text NOT NULL,
        "email" text NOT NULL,
        "phone" text NULL,
        "token_hash" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "reminded_at" timestamptz NULL,
        CONSTRAINT "participants_token_hash_key" UNIQUE ("token_hash")
      )`);
    await runner.query(`
      CREATE INDEX "participants_signup_created_idx"
        ON "signups"."participants" ("signup_id", "created_at" DESC, "id" DESC)`);

    // target_id names a slot or an item (by kind), so it has no foreign key: a slot or item
    // with registrations cannot be deleted (its count is above zero), which keeps it valid.
    await runner.query(`
      CREATE TABLE "signups"."selections" (
        "participant_id" uuid NOT NULL REFERENCES "signups"."participants" ("id") ON DELETE CASCADE,
        "kind" text NOT NULL,
        "target_id" uuid NOT NULL,
        "quantity" integer NOT NULL,
        PRIMARY KEY ("participant_id", "kind", "target_id"),
        CONSTRAINT "selections_kind_check" CHECK ("kind" IN ('slot', 'item')),
        CONSTRAINT "selections_quantity_check" CHECK ("quantity" >= 1)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE "signups"."selections"');
    await runner.query('DROP TABLE "signups"."participants"');
    await runner.query('DROP TABLE "signups"."items"');
    await runner.query('DROP TABLE "signups"."slots"');
  }
}
