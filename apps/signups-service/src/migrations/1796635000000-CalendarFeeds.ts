import { sqlMigration } from '#libs/persistence';

/**
 * Each organization's calendar feed, one per mode: only the SHA-256 of its secret token is kept,
 * looked up by that hash when the feed is read. A new token replaces the row (the old address stops
 * working); revoking deletes it.
 */
export const CalendarFeeds1796635000000 = sqlMigration('CalendarFeeds1796635000000', {
  up: [
    `CREATE TABLE "signups"."calendar_feeds" (
       "organization_id" text NOT NULL,
       "livemode" boolean NOT NULL,
       "token_hash" text NOT NULL,
       "created_at" timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now()),
       PRIMARY KEY ("organization_id", "livemode"),
       CONSTRAINT "calendar_feeds_token_hash_key" UNIQUE ("token_hash")
     )`,
  ],
  down: [`DROP TABLE "signups"."calendar_feeds"`],
});
