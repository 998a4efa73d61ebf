import { sqlMigration } from '#libs/persistence';

const EMAILS = '"reminders"."emails"';
const SUPPRESSIONS = '"reminders"."email_suppressions"';

/**
 * The email outbox (docs/decisions.md, "Email"):
 * - emails: one row per message, recorded before it is sent and unique by its dedup key (the
 *   event and the kind it answers), so a redelivered event records nothing new. `sealed` holds the
 *   rendered message (it carries personal links), sealed under EMAIL_SECRET_KEY. Statuses: stored
 *   (kept, never sent: sandbox, or no SMTP_URL), queued (due at next_attempt_at), sending (claimed
 *   until lease_until), sent, failed, suppressed.
 * - email_suppressions: addresses not to mail. A hard bounce suppresses an address for everyone
 *   (organization_id ''); an unsubscribe, one organization's reminders.
 */
export const Emails1796710000000 = sqlMigration('Emails1796710000000', {
  up: [
    `CREATE TABLE ${EMAILS} (
      "id" uuid PRIMARY KEY,
      "dedup_key" text NOT NULL UNIQUE,
      "kind" text NOT NULL,
      "organization_id" text NULL,
      "livemode" boolean NOT NULL,
      "signup_id" uuid NULL,
      "participant_id" uuid NULL,
      "to_address" text NOT NULL,
      "sealed" text NOT NULL,
      "status" text NOT NULL CHECK ("status" IN ('stored', 'queued', 'sending', 'sent', 'failed', 'suppressed')),
      "attempts" integer NOT NULL DEFAULT 0,
      "next_attempt_at" timestamptz NULL,
      "lease_until" timestamptz NULL,
      "last_error" text NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "sent_at" timestamptz NULL
    )`,
    `CREATE INDEX "emails_due_idx" ON ${EMAILS} ("next_attempt_at") WHERE "status" IN ('queued', 'sending')`,
    `CREATE INDEX "emails_signup_idx" ON ${EMAILS} ("signup_id", "created_at")`,
    `CREATE INDEX "emails_created_idx" ON ${EMAILS} ("created_at")`,
    `CREATE TABLE ${SUPPRESSIONS} (
      "address" text NOT NULL,
      "organization_id" text NOT NULL,
      "reason" text NOT NULL CHECK ("reason" IN ('bounced', 'unsubscribed')),
      "created_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("address", "organization_id")
    )`,
  ],
  down: [`DROP TABLE ${SUPPRESSIONS}`, `DROP TABLE ${EMAILS}`],
});
