import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The auth-server's own OAuth records get tables of their own, out of oidc-provider's key-value
 * store: the organization chosen for each grant, the revoked grants, and the last poll of each
 * device code (keyed by the code's SHA-256, as its row in the store was). Existing rows move
 * with their expiries; a row that had none gets the lifetime the code gives such a record.
 */
export class OAuthRecordTables1796500000000 implements MigrationInterface {
  name = 'OAuthRecordTables1796500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "auth"."oauth_grant_organizations" (
        "grant_id" text PRIMARY KEY,
        "organization_id" text NOT NULL,
        "expires_at" timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX "oauth_grant_organizations_expires_at_idx" ON "auth"."oauth_grant_organizations" ("expires_at")`);
    await runner.query(`
      CREATE TABLE "auth"."oauth_revoked_grants" (
        "grant_id" text PRIMARY KEY,
        "revoked_at" timestamptz NOT NULL,
        "expires_at" timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX "oauth_revoked_grants_expires_at_idx" ON "auth"."oauth_revoked_grants" ("expires_at")`);
    await runner.query(`
      CREATE TABLE "auth"."oauth_device_polls" (
        "device_code_hash" text PRIMARY KEY,
        "polled_at" timestamptz NOT NULL,
        "expires_at" timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX "oauth_device_polls_expires_at_idx" ON "auth"."oauth_device_polls" ("expires_at")`);

    await runner.query(`
      INSERT INTO "auth"."oauth_grant_organizations" ("grant_id", "organization_id", "expires_at")
      SELECT "id", "payload"->>'organizationId', COALESCE("expires_at", now() + interval '30 days')
      FROM "auth"."oauth_store" WHERE "model" = 'GrantOrganization' AND "payload"->>'organizationId' IS NOT NULL`);
    await runner.query(`
      INSERT INTO "auth"."oauth_revoked_grants" ("grant_id", "revoked_at", "expires_at")
      SELECT "id", COALESCE(to_timestamp(("payload"->>'revokedAt')::double precision / 1000), now()), COALESCE("expires_at", now() + interval '65 minutes')
      FROM "auth"."oauth_store" WHERE "model" = 'RevokedGrant'`);
    await runner.query(`
      INSERT INTO "auth"."oauth_device_polls" ("device_code_hash", "polled_at", "expires_at")
      SELECT "id", to_timestamp(("payload"->>'polledAt')::double precision / 1000), COALESCE("expires_at", now() + interval '10 minutes')
      FROM "auth"."oauth_store" WHERE "model" = 'DevicePoll' AND "payload"->>'polledAt' IS NOT NULL`);
    await runner.query(`DELETE FROM "auth"."oauth_store" WHERE "model" IN ('GrantOrganization', 'RevokedGrant', 'DevicePoll')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`
      INSERT INTO "auth"."oauth_store" ("model", "id", "payload", "expires_at")
      SELECT 'GrantOrganization', "grant_id", jsonb_build_object('organizationId', "organization_id"), "expires_at"
      FROM "auth"."oauth_grant_organizations"
      ON CONFLICT ("model", "id") DO NOTHING`);
    await runner.query(`
      INSERT INTO "auth"."oauth_store" ("model", "id", "payload", "expires_at")
      SELECT 'RevokedGrant', "grant_id", jsonb_build_object('revokedAt', floor(extract(epoch FROM "revoked_at") * 1000)::bigint), "expires_at"
      FROM "auth"."oauth_revoked_grants"
      ON CONFLICT ("model", "id") DO NOTHING`);
    await runner.query(`
      INSERT INTO "auth"."oauth_store" ("model", "id", "payload", "expires_at")
      SELECT 'DevicePoll', "device_code_hash", jsonb_build_object('polledAt', floor(extract(epoch FROM "polled_at") * 1000)::bigint), "expires_at"
      FROM "auth"."oauth_device_polls"
      ON CONFLICT ("model", "id") DO NOTHING`);
    await runner.query(`DROP TABLE "auth"."oauth_device_polls"`);
    await runner.query(`DROP TABLE "auth"."oauth_revoked_grants"`);
    await runner.query(`DROP TABLE "auth"."oauth_grant_organizations"`);
  }
}
