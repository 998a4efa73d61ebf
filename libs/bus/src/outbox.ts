import type { EntityManager, MigrationInterface } from 'typeorm';
import type { CloudEvent } from '#libs/contracts';
import { currentRequestId, traceContextHeaders } from '#libs/observability';
import { prepared, rowsOf, sqlMigration } from '#libs/persistence';

/** `"schema"."name"`, quoted for SQL. */
export function qualified(schema: string, name: string): string {
  return `"${schema.replaceAll('"', '""')}"."${name}"`;
}

/** The outbox and processed_events tables; apps run this SQL in their first migration. */
export function outboxMigrationSql(schema: string): { up: string[]; down: string[] } {
  const outbox = qualified(schema, 'outbox');
  const processed = qualified(schema, 'processed_events');
  return {
    up: [
      `CREATE TABLE ${outbox} (
        "id" uuid PRIMARY KEY,
        "type" text NOT NULL,
        "payload" jsonb NOT NULL,
        "request_id" text NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "published_at" timestamptz NULL
      )`,
      `CREATE INDEX "outbox_unpublished_idx" ON ${outbox} ("created_at", "id") WHERE "published_at" IS NULL`,
      `CREATE TABLE ${processed} (
        "consumer" text NOT NULL,
        "event_id" uuid NOT NULL,
        "processed_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("consumer", "event_id")
      )`,
    ],
    down: [`DROP TABLE ${processed}`, `DROP TABLE ${outbox}`],
  };
}

/** An event with what caused it: the request id and the W3C trace context it was emitted in. */
export interface CausedEvent {
  event: CloudEvent;
  requestId: string | null;
  traceContext: Record<string, string> | null;
}

/** The event with the request and trace it is emitted in (the current async context). */
export function caused(event: CloudEvent): CausedEvent {
  const traceContext = traceContextHeaders();
  return { event, requestId: currentRequestId() ?? null, traceContext: Object.keys(traceContext).length > 0 ? traceContext : null };
}

/**
 * Records events in the caller's transaction, beside the state change they describe, in one
 * statement, each with the request id and the W3C trace context that caused it; the OutboxRelay
 * publishes them once the transaction commits.
 */
export async function enqueueEvents(manager: EntityManager, schema: string, events: readonly CausedEvent[]): Promise<void> {
  if (!manager.queryRunner?.isTransactionActive) throw new Error('enqueueEvents must run inside the transaction of the state change');
  if (events.length === 0) return;
  await rowsOf(
    manager,
    prepared(
      `INSERT INTO ${qualified(schema, 'outbox')} ("id", "type", "payload", "request_id", "trace_context")
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::jsonb[], $4::text[], $5::jsonb[])`,
    ),
    [
      events.map((e) => e.event.id),
      events.map((e) => e.event.type),
      events.map((e) => JSON.stringify(e.event)),
      events.map((e) => e.requestId),
      events.map((e) => e.traceContext && JSON.stringify(e.traceContext)),
    ],
  );
}

/** A migration that creates only the outbox tables: the first migration of a schema with no tables of its own yet. */
export function outboxMigration(name: string, schema: string): new () => MigrationInterface {
  return sqlMigration(name, outboxMigrationSql(schema));
}

/** outbox.trace_context: the traceparent and tracestate of the request that caused the event (an expand step). */
export function outboxTraceContextSql(schema: string): { up: string[]; down: string[] } {
  const outbox = qualified(schema, 'outbox');
  return {
    up: [`ALTER TABLE ${outbox} ADD COLUMN "trace_context" jsonb NULL`],
    down: [`ALTER TABLE ${outbox} DROP COLUMN "trace_context"`],
  };
}

export function outboxTraceContextMigration(name: string, schema: string): new () => MigrationInterface {
  return sqlMigration(name, outboxTraceContextSql(schema));
}

/**
 * Indexes the retention job's deletes of published outbox rows and old processed event ids
 * (docs/decisions.md, "Retention") read, so a prune reads the old rows only.
 */
export function outboxRetentionSql(schema: string): { up: string[]; down: string[] } {
  const outbox = qualified(schema, 'outbox');
  const processed = qualified(schema, 'processed_events');
  return {
    up: [
      `CREATE INDEX "outbox_published_idx" ON ${outbox} ("published_at") WHERE "published_at" IS NOT NULL`,
      `CREATE INDEX "processed_events_processed_at_idx" ON ${processed} ("processed_at")`,
    ],
    down: [
      `DROP INDEX ${qualified(schema, 'processed_events_processed_at_idx')}`,
      `DROP INDEX ${qualified(schema, 'outbox_published_idx')}`,
    ],
  };
}
