import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import type { JWK } from 'jose';
import type { DataSource } from 'typeorm';
import { affectedBy, rowsOf } from '#libs/persistence';

export interface OAuthKeys {
  /** The private ES256 JWK that signs access tokens (never log it). */
  signingKey: Record<string, unknown>;
  /** Secrets that sign the provider's cookies. */
  cookieKeys: string[];
}

function newKeys(): OAuthKeys {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return {
    signingKey: { ...jwk, kid: randomUUID(), alg: 'ES256', use: 'sig' },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

/**
 * The provider's keys, made at the first boot and kept in auth.oauth_keys, so restarts and
 * replicas share them. Replicas booting together race on the insert; all read the winner's.
 */
export async function loadOrCreateOAuthKeys(dataSource: DataSource): Promise<OAuthKeys> {
  await affectedBy(dataSource, `INSERT INTO "auth"."oauth_keys" ("id", "value") VALUES ('provider', $1) ON CONFLICT ("id") DO NOTHING`, [
    JSON.stringify(newKeys()),
  ]);
  const rows = await rowsOf<{ value: OAuthKeys }>(dataSource, `SELECT "value" FROM "auth"."oauth_keys" WHERE "id" = 'provider'`);
  const stored = rows[0];
  if (!stored) throw new Error('The OAuth keys could not be stored.');
  return stored.value;
}

/** The public half of the signing key, as a JWK Set. */
export function publicJwks(signingKey: Record<string, unknown>): { keys: JWK[] } {
  const { kty, crv, x, y, kid, alg, use } = signingKey;
  return { keys: [{ kty, crv, x, y, kid, alg, use } as JWK] };
}
