import { describeRetention, outboxRetentionCases, SEEDED } from '#libs/testing';
import { remindersServiceApp } from './index.js';

/** `SEEDED` texts of a kind (their body), sandbox or live, sent `age` ago (or only claimed, when null). */
const seed = (kind: string, livemode: boolean, age: string | null) =>
  `INSERT INTO "reminders"."messages" ("id", "signup_id", "participant_id", "organization_id", "livemode", "phone", "body", "trigger", "status", "claimed_at", "sent_at")
   SELECT gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'org_retention', ${livemode}, '+1415555' || lpad(n::text, 4, '0'), '${kind}', 'manual',
          ${age === null ? `'claimed', now() - interval '30 days', NULL` : `'sent', now() - interval '${age}', now() - interval '${age}'`}
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
]);
