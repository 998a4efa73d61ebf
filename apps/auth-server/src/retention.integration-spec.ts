import { describeRetention, outboxRetentionCases, type RetentionCase, SEEDED } from '#libs/testing';
import { authServerApp } from './index.js';

/** `SEEDED` OAuth rows of a kind, expiring at `expiry` (an SQL expression, NULL for never). */
const seedOAuth = (kind: string, expiry: string) =>
  `INSERT INTO "auth"."oauth_store" ("model", "id", "payload", "expires_at")
   SELECT 'AccessToken', '${kind}-' || n, '{}', ${expiry} FROM generate_series(1, ${SEEDED}) AS n`;
const seedSessions = (kind: string, expiry: string) =>
  `INSERT INTO "auth"."account_sessions" ("id", "user_id", "expires_at")
   SELECT '${kind}-' || n, 'usr_retention', ${expiry} FROM generate_series(1, ${SEEDED}) AS n`;
const seedTokens = (kind: string, expiry: string) =>
  `INSERT INTO "auth"."account_tokens" ("id", "user_id", "purpose", "expires_at")
   SELECT '${kind}-' || n, 'usr_retention', 'reset_password', ${expiry} FROM generate_series(1, ${SEEDED}) AS n`;
const kinds = (table: string) =>
  `SELECT split_part("id", '-', 1) AS "kind", count(*)::int AS "count" FROM "auth"."${table}" GROUP BY 1 ORDER BY 1`;
const old = `now() - interval '61 minutes'`;
const expired = `now() - interval '59 minutes'`;
const live = `now() + interval '1 hour'`;

/** One of the auth-server's own OAuth tables: `SEEDED` rows of each kind, keyed by `key`, with `column` set to `value`. */
function oauthRecordCase(table: string, key: string, column: string, value: string): RetentionCase {
  const seed = (kind: string, expiry: string) =>
    `INSERT INTO "auth"."${table}" ("${key}", "${column}", "expires_at")
     SELECT '${kind}-' || n, ${value}, ${expiry} FROM generate_series(1, ${SEEDED}) AS n`;
  return {
    table,
    seed: [seed('old', old), seed('expired', expired), seed('live', live)],
    left: `SELECT split_part("${key}", '-', 1) AS "kind", count(*)::int AS "count" FROM "auth"."${table}" GROUP BY 1 ORDER BY 1`,
    expected: [
      { kind: 'expired', count: SEEDED },
      { kind: 'live', count: SEEDED },
    ],
    deleted: SEEDED,
  };
}

describeRetention(
  authServerApp,
  [
    ...outboxRetentionCases('auth'),
    {
      table: 'oauth_store',
      seed: [seedOAuth('old', old), seedOAuth('expired', expired), seedOAuth('live', live), seedOAuth('lasting', 'NULL')],
      left: kinds('oauth_store'),
      expected: [
        { kind: 'expired', count: SEEDED },
        { kind: 'lasting', count: SEEDED },
        { kind: 'live', count: SEEDED },
      ],
      deleted: SEEDED,
    },
    oauthRecordCase('oauth_grant_organizations', 'grant_id', 'organization_id', `'org_retention'`),
    oauthRecordCase('oauth_revoked_grants', 'grant_id', 'revoked_at', 'now()'),
    oauthRecordCase('oauth_device_polls', 'device_code_hash', 'polled_at', 'now()'),
    {
      table: 'account_sessions',
      seed: [
        `INSERT INTO "auth"."users" ("id", "email", "password_hash") VALUES ('usr_retention', 'retention@example.com', 'x')`,
        seedSessions('old', old),
        seedSessions('expired', expired),
        seedSessions('live', live),
      ],
      left: kinds('account_sessions'),
      expected: [
        { kind: 'expired', count: SEEDED },
        { kind: 'live', count: SEEDED },
      ],
      deleted: SEEDED,
    },
    {
      table: 'account_tokens',
      seed: [
        `INSERT INTO "auth"."users" ("id", "email", "password_hash") VALUES ('usr_retention', 'retention@example.com', 'x') ON CONFLICT DO NOTHING`,
        seedTokens('old', old),
        seedTokens('expired', expired),
        seedTokens('live', live),
      ],
      left: kinds('account_tokens'),
      expected: [
        { kind: 'expired', count: SEEDED },
        { kind: 'live', count: SEEDED },
      ],
      deleted: SEEDED,
    },
  ],
  { ADMIN_TOKEN: 'adm_retention-test-token' },
);
