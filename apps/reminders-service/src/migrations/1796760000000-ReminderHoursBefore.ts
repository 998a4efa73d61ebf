import { sqlMigration } from '#libs/persistence';

const SIGNUPS = '"reminders"."signups"';

/**
 * Each signup's reminderHoursBefore, from its signup.* events: its automatic pass is due once the
 * event is that many hours away (0: never). The rows there are get 24, the lead their passes had
 * until their signup's next event brings theirs.
 */
export const ReminderHoursBefore1796760000000 = sqlMigration('ReminderHoursBefore1796760000000', {
  up: [`ALTER TABLE ${SIGNUPS} ADD COLUMN "reminder_hours_before" integer NOT NULL DEFAULT 24`],
  down: [`ALTER TABLE ${SIGNUPS} DROP COLUMN "reminder_hours_before"`],
});
