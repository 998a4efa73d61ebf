import type { MigrationInterface, QueryRunner } from 'typeorm';
import { outboxMigrationSql } from '#libs/bus';

const outbox = outboxMigrationSql('auth');

/** Organizations, users, memberships, API keys, and the outbox of auth events. */
export class CreateAuthTables1795314125777 implements MigrationInterface {
  name = 'CreateAuthTables1795314125777';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "auth"."organizations" (
        "id" text PRIMARY KEY,
        "name" text NOT NULL,
        "slug" text NOT NULL CONSTRAINT "organizations_slug_key" UNIQUE,
        "tier" text NOT NULL DEFAULT 'free' CHECK ("tier" IN ('free', 'pro', 'org')),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`
      CREATE TABLE "auth"."users" (
        "id" text PRIMARY KEY,
        "email" text NOT NULL,
        "password_hash" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE UNIQUE INDEX "users_email_key" ON "auth"."users" (lower("email"))`);
    await runner.query(`
      CREATE TABLE "auth"."memberships" (
        "user_id" text NOT NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "organization_id" text NOT NULL REFERENCES "auth"."organizations" ("id") ON DELETE CASCADE,
        "role" text NOT NULL CHECK ("role" IN ('owner', 'admin', 'member')),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("user_id", "organization_id")
      )`);
    await runner.query(`CREATE INDEX "memberships_organization_idx" ON "auth"."memberships" ("organization_id", "created_at")`);
    await runner.query(`
      CREATE TABLE "auth"."api_keys" (
        "id" text PRIMARY KEY,
        "organization_id" text NOT NULL REFERENCES "auth"."organizations" ("id") ON DELETE CASCADE,
        "user_id" text NOT NULL REFERENCES "auth"."users" ("id") ON DELETE CASCADE,
        "name" text,
        "mode" text NOT NULL CHECK ("mode" IN ('test', 'live')),
        "scopes" text[],
        "key_hash" text NOT NULL CONSTRAINT "api_keys_key_hash_key" UNIQUE,
        "prefix" text NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "revoked_at" timestamptz
      )`);
    await runner.query(`CREATE INDEX "api_keys_organization_idx" ON "auth"."api_keys" ("organization_id")`);
    for (const sql of outbox.up) await runner.query(sql);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const sql of outbox.down) await runner.query(sql);
    await runner.query(`DROP TABLE "auth"."api_keys"`);
    await runner.query(`DROP TABLE "auth"."memberships"`);
    await runner.query(`DROP TABLE "auth"."users"`);
    await runner.query(`DROP TABLE "auth"."organizations"`);
  }
}
