import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth secrets are kept as SHA-256 hashes (OAuthStoreAdapter). Sessions and registration
 * access tokens are hashed in place, so their holders keep them. Codes, refresh tokens, device
 * codes and their polls were issued without the prefix the token endpoint now requires, and
 * interactions name a session and device code in plain text: they are deleted, and their apps
 * authorize again (an access token already issued works until it expires).
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
  }

  async down(): Promise<void> {
    // A hash cannot be turned back into the value it was made from.
  }
}
