import { sqlMigration } from '#libs/persistence';

const SIGNUPS = '"signups"."signups"';

/**
 * The series a signup belongs to (POST /signups/{id}/duplicate): null until it is duplicated or
 * copied. Nullable with no default, so Postgres adds the column without rewriting the table; the
 * index serves the series acts and the list filter, within an organization and mode.
 */
export const SignupSeries1796800000000 = sqlMigration('SignupSeries1796800000000', {
  up: [
    `ALTER TABLE ${SIGNUPS} ADD COLUMN "series_id" uuid`,
    `CREATE INDEX "signups_series_idx" ON ${SIGNUPS} ("organization_id", "livemode", "series_id") WHERE "series_id" IS NOT NULL`,
  ],
  down: [`DROP INDEX "signups"."signups_series_idx"`, `ALTER TABLE ${SIGNUPS} DROP COLUMN "series_id"`],
});
