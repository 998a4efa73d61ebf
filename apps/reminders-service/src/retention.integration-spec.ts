import { describeRetention, outboxRetentionCases, SEEDED } from '#libs/testing';
import { remindersServiceApp } from './index.js';

/** `SEEDED` texts of a kind (their body), sandbox or live, sent `age` ago (or only claimed, when null). */
const seed = (kind: string, livemode: boolean, age: string | null) =>
  `INSERT INTO "reminders"."messages" ("id", "signup_id", "participant_id", "organization_id", "livemode", "phone", "body", "trigger", "status", "claimed_at", "sent_at")
   SELECT gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'org_retention', ${livemode}, '+1415555' || lpad(n::text, 4, '0'), '${kind}', 'manual',
          ${age === null ? `'claimed', now() - interval '30 days', NULL` : `'sent', now() - interval '${age}', now() - interval '${age}'`}
   FROM generate_series(1, ${SEEDED}) AS n`;

/** `SEEDED` emails of a kind (their dedup key's prefix), recorded `age` ago. */
const seedEmails = (kind: string, age: string) =>
  `INSERT INTO "reminders"."emails" ("id", "dedup_key", "kind", "organization_id", "livemode", "to_address", "sealed", "status", "created_at")
   SELECT gen_random_uuid(), '${kind}:' || n, 'confirmation', 'org_retention', true, 'p' || n || '@example.com', 'v1.x.y.z', 'sent', now() - interval '${age}'
   FROM generate_series(1, ${SEEDED}) AS n`;

describeRetention(remindersServiceApp, [
  ...outboxRetentionCases('reminders'),
  {
    table: 'messages',
    seed: [
      seed('sandbox-old', false, '8 days'),
      seed('sandbox-recent', false, '6 days'),
      seed('live-old', true, '30 days'),
      seed('sandbox-claimed', false, null),
    ],
    left: `SELECT "body" AS "kind", count(*)::int AS "count" FROM "reminders"."messages" GROUP BY 1 ORDER BY 1`,
    expected: [
      { kind: 'live-old', count: SEEDED },
      { kind: 'sandbox-claimed', count: SEEDED },
      { kind: 'sandbox-recent', count: SEEDED },
    ],
    deleted: SEEDED,
  },
  {
    table: 'emails',
    seed: [seedEmails('old', '31 days'), seedEmails('recent', '29 days')],
    left: `SELECT split_part("dedup_key", ':', 1) AS "kind", count(*)::int AS "count" FROM "reminders"."emails" GROUP BY 1 ORDER BY 1`,
    expected: [{ kind: 'recent', count: SEEDED }],
    deleted: SEEDED,
  },
]);
