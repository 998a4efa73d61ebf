import { randomBytes } from 'node:crypto';
import { describeRetention, outboxRetentionCases, SEEDED } from '#libs/testing';
import { webhooksDispatcherApp } from './index.js';

const ENDPOINT = '0190f2a0-0000-7000-8000-000000000001';

/** `SEEDED` deliveries of a kind (their event type), created `age` ago; pending ones are due tomorrow, so no worker sends them. */
const seed = (kind: string, status: string, age: string) =>
  `INSERT INTO "webhooks"."deliveries" ("id", "endpoint_id", "event_id", "event_type", "payload", "status", "next_attempt_at", "created_at")
   SELECT gen_random_uuid(), '${ENDPOINT}', gen_random_uuid()::text, '${kind}', '{"email":"ada@example.com"}', '${status}',
          ${status === 'pending' ? `now() + interval '1 day'` : 'NULL'}, now() - interval '${age}'
   FROM generate_series(1, ${SEEDED})`;

/** `SEEDED` logged events of a kind (their type), made `age` ago, with a participant's contacts in their body. */
const seedEvents = (kind: string, age: string) =>
  `INSERT INTO "webhooks"."events" ("id", "organization_id", "livemode", "type", "payload", "created_at")
   SELECT gen_random_uuid(), 'org_retention', true, '${kind}', '{"data":{"email":"ada@example.com"}}', now() - interval '${age}'
   FROM generate_series(1, ${SEEDED})`;

describeRetention(
  webhooksDispatcherApp,
  [
    ...outboxRetentionCases('webhooks'),
    {
      table: 'deliveries',
      seed: [
        `INSERT INTO "webhooks"."endpoints" ("id", "organization_id", "livemode", "url", "event_types", "secret")
         VALUES ('${ENDPOINT}', 'org_retention', false, 'https://example.com/hook', '{}', 'sealed')`,
        seed('old-succeeded', 'succeeded', '31 days'),
        seed('old-failed', 'failed', '31 days'),
        seed('old-skipped', 'skipped', '31 days'),
        seed('old-retrying', 'pending', '31 days'),
        seed('recent-succeeded', 'succeeded', '29 days'),
      ],
      left: `SELECT "event_type" AS "kind", count(*)::int AS "count" FROM "webhooks"."deliveries" GROUP BY 1 ORDER BY 1`,
      expected: [
        { kind: 'old-retrying', count: SEEDED },
        { kind: 'recent-succeeded', count: SEEDED },
      ],
      deleted: 3 * SEEDED,
    },
    {
      table: 'events',
      seed: [seedEvents('old', '31 days'), seedEvents('recent', '29 days')],
      left: `SELECT "type" AS "kind", count(*)::int AS "count" FROM "webhooks"."events" GROUP BY 1 ORDER BY 1`,
      expected: [{ kind: 'recent', count: SEEDED }],
      deleted: SEEDED,
    },
  ],
  { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') },
);
