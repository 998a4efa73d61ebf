import { sqlMigration } from '#libs/persistence';

/**
 * The event log (docs/decisions.md, "Event log and sync"): every event the fan-out applies, once,
 * as its webhook body. A row's position is the id of the transaction that wrote it (`tx_id`), then
 * `seq`; readers see only rows of transactions older than every one still running, so a position
 * once read is never preceded by a row committed later. Pruned by age (`created_at`, the event's
 * time) like the deliveries, whose payloads it repeats.
 */
export const EventLog1796810000000 = sqlMigration('EventLog1796810000000', {
  up: [
    `CREATE TABLE "webhooks"."events" (
       "id" uuid PRIMARY KEY,
       "organization_id" text NOT NULL,
       "livemode" boolean NOT NULL,
       "type" text NOT NULL,
       "payload" text NOT NULL,
       "created_at" timestamptz(3) NOT NULL,
       "tx_id" xid8 NOT NULL DEFAULT pg_current_xact_id(),
       "seq" bigserial NOT NULL
     )`,
    `CREATE INDEX "events_log_idx" ON "webhooks"."events" ("organization_id", "livemode", "tx_id", "seq")`,
    `CREATE INDEX "events_created_idx" ON "webhooks"."events" ("created_at")`,
  ],
  down: [`DROP TABLE "webhooks"."events"`],
});
