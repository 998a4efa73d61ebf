import { sqlMigration } from '#libs/persistence';

const SIGNUPS = '"signups"."signups"';

/**
 * How many hours before its event a signup's participants get the automatic reminder (0: none,
 * up to 336). The signups there are get 24, when their reminder has gone out so far. A constant
 * default, so Postgres adds the column without rewriting the table; the bounds are the API's too.
 */
export const ReminderHoursBefore1796760000000 = sqlMigration('ReminderHoursBefore1796760000000', {
  up: [
    `ALTER TABLE ${SIGNUPS}
       ADD COLUMN "reminder_hours_before" integer NOT NULL DEFAULT 24,
       ADD CONSTRAINT "signups_reminder_hours_before_check" CHECK ("reminder_hours_before" BETWEEN 0 AND 336)`,
  ],
  down: [`ALTER TABLE ${SIGNUPS} DROP COLUMN "reminder_hours_before"`],
});
