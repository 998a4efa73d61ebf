import { sqlMigration } from '#libs/persistence';

const SIGNUPS = '"reminders"."signups"';

/**
 * Each signup's time zone, from its signup.* events: a reminder says the date and time in it. The
 * rows there are get UTC, the zone their signups had until their next event brings theirs.
 */
export const SignupTimeZone1796700000010 = sqlMigration('SignupTimeZone1796700000010', {
  up: [`ALTER TABLE ${SIGNUPS} ADD COLUMN "time_zone" text NOT NULL DEFAULT 'UTC'`],
  down: [`ALTER TABLE ${SIGNUPS} DROP COLUMN "time_zone"`],
});
