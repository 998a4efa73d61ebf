import { describeRetention, SEEDED } from '#libs/testing';
import { apiGatewayApp } from './index.js';

/** `SEEDED` records of a kind, expiring at `expiry` (an SQL expression). */
const seed = (kind: string, expiry: string) =>
  `INSERT INTO "gateway"."idempotency_keys" ("id", "fingerprint", "state", "claim", "expires_at")
   SELECT '${kind}-' || n, 'fp', 'running', gen_random_uuid(), ${expiry} FROM generate_series(1, ${SEEDED}) AS n`;

describeRetention(apiGatewayApp, [
  {
    table: 'idempotency_keys',
    seed: [
      seed('old', `now() - interval '61 minutes'`),
      seed('expired', `now() - interval '59 minutes'`),
      seed('live', `now() + interval '1 hour'`),
    ],
    left: `SELECT split_part("id", '-', 1) AS "kind", count(*)::int AS "count" FROM "gateway"."idempotency_keys" GROUP BY 1 ORDER BY 1`,
    expected: [
      { kind: 'expired', count: SEEDED },
      { kind: 'live', count: SEEDED },
    ],
    deleted: SEEDED,
  },
]);
