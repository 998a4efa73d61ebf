import { sqlMigration } from '#libs/persistence';

const SIGNUPS = '"signups"."signups"';
const PARTICIPANTS = '"signups"."participants"';
const ENTRIES = '"signups"."waitlist_entries"';

/**
 * Waitlists: a signup's settings, a participant's status, and the lines themselves. A line is
 * the entries of one slot, item or the signup itself (kind 'signup', maxParticipants), in the
 * order of `seq`. An entry that is offered holds its place (counted in the slot's, item's or
 * signup's count) until it is accepted, declined or expires; entries that ended stay, in a
 * final state, for the answer to a second accept and for analytics.
 */
export const Waitlist1796600000000 = sqlMigration('Waitlist1796600000000', {
  up: [
    `ALTER TABLE ${SIGNUPS}
       ADD COLUMN "waitlist_enabled" boolean NOT NULL DEFAULT false,
       ADD COLUMN "waitlist_mode" text NOT NULL DEFAULT 'auto',
       ADD COLUMN "waitlist_offer_minutes" integer NOT NULL DEFAULT 1440,
       ADD CONSTRAINT "signups_waitlist_mode_check" CHECK ("waitlist_mode" IN ('auto', 'offer')),
       ADD CONSTRAINT "signups_waitlist_offer_minutes_check" CHECK ("waitlist_offer_minutes" BETWEEN 5 AND 10080)`,
    `ALTER TABLE ${PARTICIPANTS}
       ADD COLUMN "status" text NOT NULL DEFAULT 'confirmed',
       ADD COLUMN "status_changed_at" timestamptz,
       ADD COLUMN "cancelled_at" timestamptz,
       ADD CONSTRAINT "participants_status_check"
         CHECK ("status" IN ('confirmed', 'waitlisted', 'offered', 'cancelled', 'attended', 'no_show'))`,
    `UPDATE ${PARTICIPANTS} SET "status_changed_at" = "created_at"`,
    `ALTER TABLE ${PARTICIPANTS} ALTER COLUMN "status_changed_at" SET NOT NULL, ALTER COLUMN "status_changed_at" SET DEFAULT now()`,
    `CREATE INDEX "participants_signup_status_created_idx" ON ${PARTICIPANTS} ("signup_id", "status", "created_at" DESC, "id" DESC)`,
    `CREATE TABLE ${ENTRIES} (
       "id" uuid PRIMARY KEY,
       "signup_id" uuid NOT NULL REFERENCES ${SIGNUPS} ("id") ON DELETE CASCADE,
       "participant_id" uuid NOT NULL REFERENCES ${PARTICIPANTS} ("id") ON DELETE CASCADE,
       "kind" text NOT NULL,
       "target_id" uuid NOT NULL,
       "quantity" integer NOT NULL,
       "seq" bigint GENERATED ALWAYS AS IDENTITY,
       "state" text NOT NULL DEFAULT 'waiting',
       "created_at" timestamptz NOT NULL DEFAULT now(),
       "offered_at" timestamptz,
       "offer_expires_at" timestamptz,
       "ended_at" timestamptz,
       CONSTRAINT "waitlist_entries_kind_check" CHECK ("kind" IN ('signup', 'slot', 'item')),
       CONSTRAINT "waitlist_entries_quantity_check" CHECK ("quantity" >= 1),
       CONSTRAINT "waitlist_entries_state_check" CHECK ("state" IN ('waiting', 'offered', 'promoted', 'expired', 'left')),
       CONSTRAINT "waitlist_entries_offer_check" CHECK ("state" <> 'offered' OR "offer_expires_at" IS NOT NULL)
     )`,
    `CREATE UNIQUE INDEX "waitlist_entries_active_key" ON ${ENTRIES} ("participant_id", "kind", "target_id")
       WHERE "state" IN ('waiting', 'offered')`,
    `CREATE INDEX "waitlist_entries_line_idx" ON ${ENTRIES} ("signup_id", "kind", "target_id", "seq") WHERE "state" IN ('waiting', 'offered')`,
    `CREATE INDEX "waitlist_entries_due_idx" ON ${ENTRIES} ("offer_expires_at") WHERE "state" = 'offered'`,
  ],
  down: [
    `DROP TABLE ${ENTRIES}`,
    `DROP INDEX "signups"."participants_signup_status_created_idx"`,
    `ALTER TABLE ${PARTICIPANTS} DROP COLUMN "status", DROP COLUMN "status_changed_at", DROP COLUMN "cancelled_at"`,
    `ALTER TABLE ${SIGNUPS} DROP COLUMN "waitlist_enabled", DROP COLUMN "waitlist_mode", DROP COLUMN "waitlist_offer_minutes"`,
  ],
});
