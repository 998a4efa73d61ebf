import { sqlMigration } from '#libs/persistence';

const ORGANIZATIONS = '"auth"."organizations"';

/**
 * An organization's time zone (an IANA name), the default of its new signups: UTC for the
 * organizations there are and for those made without one. A constant default, so Postgres adds
 * the column without rewriting the table.
 */
export const OrganizationTimeZone1796700000010 = sqlMigration('OrganizationTimeZone1796700000010', {
  up: [`ALTER TABLE ${ORGANIZATIONS} ADD COLUMN "time_zone" text NOT NULL DEFAULT 'UTC'`],
  down: [`ALTER TABLE ${ORGANIZATIONS} DROP COLUMN "time_zone"`],
});
