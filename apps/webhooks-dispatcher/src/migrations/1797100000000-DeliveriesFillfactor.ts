import { sqlMigration } from '#libs/persistence';

/**
 * Room on each page of the deliveries for the versions of its rows (docs/benchmarks.md, "The
 * fan-out's writes"): a claim changes no indexed column, so with room on its page Postgres
 * writes the new version there without touching an index (a HOT update), and prunes the old
 * one when the page is next read. Applies to pages written from now on.
 */
export const DeliveriesFillfactor1797100000000 = sqlMigration('DeliveriesFillfactor1797100000000', {
  up: [`ALTER TABLE "webhooks"."deliveries" SET (fillfactor = 60)`],
  down: [`ALTER TABLE "webhooks"."deliveries" RESET (fillfactor)`],
});
