import { sqlMigration } from '#libs/persistence';

const SIGNUPS = '"signups"."signups"';

/**
 * A signup's time zone (an IANA name), in which people see its dates and times. The signups
 * there are get UTC, the zone they have been shown in so far; new ones always get one (given, or
 * their organization's). A constant default, so Postgres adds the column without rewriting the table.
 */
export const SignupTimeZone1796700000010 = sqlMigration('SignupTimeZone1796700000010', {
  up: [`ALTER TABLE ${SIGNUPS} ADD COLUMN "time_zone" text NOT NULL DEFAULT 'UTC'`],
  down: [`ALTER TABLE ${SIGNUPS} DROP COLUMN "time_zone"`],
});
