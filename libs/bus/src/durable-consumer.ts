import type { DataSource, EntityManager } from 'typeorm';
import type { CloudEvent, EventType } from '#libs/contracts';
import type { Bus, Subscription } from './bus.js';
import type { BusLogger } from './envelope.js';
import { qualified } from './outbox.js';

export interface ConsumeOnceOptions {
  bus: Bus;
  dataSource: DataSource;
  /** The schema holding processed_events (see outboxMigrationSql). */
  schema: string;
  /** Durable consumer name; also the key under which applied event ids are recorded. */
  consumer: string;
  types: readonly EventType[];
  logger: BusLogger;
  maxDeliver?: number;
  /** Runs after the transaction that applied a new event has committed (e.g. to wake a worker). */
  afterCommit?: (event: CloudEvent) => void;
}

/**
 * Consumes durably and applies each event id once: one transaction records the id in
 * processed_events and, only if it was new, runs the handler with the same manager. The
 * event is acked after the commit; a redelivery or a duplicate publish is skipped.
 */
export function consumeOnce(
  options: ConsumeOnceOptions,
  handler: (manager: EntityManager, event: CloudEvent) => Promise<void>,
): Promise<Subscription> {
  const { bus, dataSource, schema, consumer, types, logger, maxDeliver, afterCommit } = options;
  const claim = `INSERT INTO ${qualified(schema, 'processed_events')} ("consumer", "event_id") VALUES ($1, $2)
    ON CONFLICT DO NOTHING RETURNING "event_id"`;
  return bus.consume({ durable: consumer, types, maxDeliver }, async (event) => {
    const applied = await dataSource.transaction(async (manager) => {
      const claimed: unknown[] = await manager.query(claim, [consumer, event.id]);
      if (claimed.length > 0) {
        await handler(manager, event);
        return true;
      }
      logger.debug?.({ consumer, eventId: event.id, type: event.type }, 'event already applied; skipped');
      return false;
    });
    if (applied) afterCommit?.(event);
  });
}
