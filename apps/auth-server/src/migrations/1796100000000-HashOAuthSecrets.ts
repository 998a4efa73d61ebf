import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth secrets are kept as SHA-256 hashes (OAuthStoreAdapter). Sessions, registration access
 * tokens and client secrets are hashed in place, so their holders keep them. Codes, refresh
 * tokens, device codes and their polls were issued without the prefix the token endpoint now
 * requires, and interactions name a session and device code in plain text: they are deleted, and
 * their apps authorize again (access tokens issued before lack the `oat_` prefix too, and are
 * refused at once).
 */
export class HashOAuthSecrets1796100000000 implements MigrationInterface {
  name = 'HashOAuthSecrets1796100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      DELETE FROM "auth"."oauth_store" WHERE "model" IN (
        'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'DevicePoll', 'AccessToken', 'ClientCredentials', 'InitialAccessToken',
        'PushedAuthorizationRequest', 'BackchannelAuthenticationRequest', 'Interaction'
      )`);
    await runner.query(`
      UPDATE "auth"."oauth_store" SET "id" = encode(sha256(convert_to("id", 'UTF8')), 'hex'), "payload" = "payload" - 'jti'
      WHERE "model" IN ('Session', 'RegistrationAccessToken')`);
    await runner.query(`
      UPDATE "auth"."oauth_store"
      SET "payload" = jsonb_set("payload", '{client_secret}', to_jsonb(encode(sha256(convert_to("payload"->>'client_secret', 'UTF8')), 'hex')))
      WHERE "model" = 'Client' AND jsonb_typeof("payload"->'client_secret') = 'string'`);
  }

  async down(): Promise<void> {
    // A hash cannot be turned back into the value it was made from.
  }
}
