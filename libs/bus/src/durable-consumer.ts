import type { DataSource, EntityManager } from 'typeorm';
import type { CloudEvent, EventType } from '#libs/contracts';
import { Batches, type InTurn, prepared, rowsOf } from '#libs/persistence';
import type { Bus, Subscription } from './bus.js';
import type { BusLogger } from './envelope.js';
import { qualified } from './outbox.js';

export interface ConsumeOnceOptions<T extends EventType = EventType> {
  bus: Bus;
  dataSource: DataSource;
  /** The schema holding processed_events (see outboxMigrationSql). */
  schema: string;
  /** Durable consumer name; also the key under which applied event ids are recorded. */
  consumer: string;
  types: readonly T[];
  logger: BusLogger;
  maxDeliver?: number;
  /** Runs after the transaction that applied a new event has committed (e.g. to wake a worker). */
  afterCommit?: (event: CloudEvent<T>) => void;
}

/** Events handed to a member of the consumer at once, and so applied in one transaction at most. */
const BATCH = 64;

/**
 * Consumes durably and applies each event id once: one transaction records the id in
 * processed_events and, only if it was new, runs the handler with the same manager. Events that
 * arrive while a transaction runs wait and then go in the next one together (Batches, at most
 * BATCH), so a busy consumer pays one transaction and one commit for many events; each is acked
 * after the commit. When a batch fails, each of its events is applied again in a transaction of
 * its own, so only the failing one is redelivered. A redelivery or a duplicate publish is
 * skipped. A handler may so run again after a rollback: it writes only through the manager, and
 * leaves effects outside the database to afterCommit. `prepare` runs before the transaction, for
 * reads a handler needs from other apps: a request made inside the transaction would hold a
 * connection meanwhile (and, on the all-in-one mode's single embedded database, wait for itself).
 */
export function consumeOnce<T extends EventType, P = undefined>(
  options: ConsumeOnceOptions<T>,
  handler: (manager: EntityManager, event: CloudEvent<T>, prepared: P) => Promise<void>,
  prepare?: (event: CloudEvent<T>) => Promise<P>,
): Promise<Subscription> {
  /** What `prepare` read for each event before its transaction (requests to other apps hold no connection of ours). */
  const preparedFor = new WeakMap<CloudEvent<T>, P>();
  const { bus, dataSource, schema, consumer, types, logger, maxDeliver, afterCommit } = options;
  const claim = prepared(`INSERT INTO ${qualified(schema, 'processed_events')} ("consumer", "event_id")
    SELECT $1, id FROM unnest($2::uuid[]) AS id ON CONFLICT DO NOTHING RETURNING "event_id"`);

  /** Applies the events not applied before, in order and each in its own async context, in one transaction; whether each was the one that applied its id. */
  const applyAll = (batch: readonly CloudEvent<T>[], inTurn: InTurn<CloudEvent<T>>): Promise<boolean[]> =>
    dataSource.transaction(async (manager) => {
      const claimed = await rowsOf<{ event_id: string }>(manager, claim, [consumer, batch.map((event) => event.id)]);
      const fresh = new Set(claimed.map((row) => row.event_id));
      // Postgres answers ids in canonical (lowercase) form.
      const applied = new Set<string>();
      return inTurn(async (event) => {
        const first = fresh.has(event.id.toLowerCase()) && !applied.has(event.id);
        if (first) {
          await handler(manager, event, preparedFor.get(event) as P);
          applied.add(event.id);
        }
        return first;
      });
    });

  const batches = new Batches<string, CloudEvent<T>, boolean>({
    run: (_consumer, batch, inTurn) => applyAll(batch, inTurn),
    max: BATCH,
    onBatchFailed: (err, _consumer, events) => logger.warn({ err, consumer, events }, 'event batch failed; applying its events one by one'),
  });

  return bus.consume({ durable: consumer, types, maxDeliver, concurrency: BATCH }, async (event) => {
    if (prepare) preparedFor.set(event, await prepare(event));
    const applied = await batches.submit(consumer, event);
    if (applied) afterCommit?.(event);
    else logger.debug?.({ consumer, eventId: event.id, type: event.type }, 'event already applied; skipped');
  });
}
