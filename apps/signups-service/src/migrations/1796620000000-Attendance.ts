import { sqlMigration } from '#libs/persistence';

const PARTICIPANTS = '"signups"."participants"';

/**
 * Attendance: when a participant was checked in or marked a no-show, and the hours they served
 * (set at check-in, null otherwise). The report over an organization's signups reads the attended
 * participants of each signup through the status index of the waitlist migration.
 */
export const Attendance1796620000000 = sqlMigration('Attendance1796620000000', {
  up: [
    `ALTER TABLE ${PARTICIPANTS}
       ADD COLUMN "checked_in_at" timestamptz,
       ADD COLUMN "no_show_at" timestamptz,
       ADD COLUMN "hours_served" numeric(6, 2),
       ADD CONSTRAINT "participants_hours_served_check" CHECK ("hours_served" BETWEEN 0 AND 1000),
       ADD CONSTRAINT "participants_attendance_check" CHECK (("checked_in_at" IS NULL) = ("hours_served" IS NULL))`,
  ],
  down: [`ALTER TABLE ${PARTICIPANTS} DROP COLUMN "checked_in_at", DROP COLUMN "no_show_at", DROP COLUMN "hours_served"`],
});
