import type { DataSource, EntityManager } from 'typeorm';
import { type Bus, type BusLogger, caused, type CausedEvent, enqueueEvents, OutboxRelay, qualified } from '#libs/bus';
import { cloudEvent, type EventMap, type EventType } from '#libs/contracts';
import { type Metrics, sharedRead } from '#libs/observability';
import { rowsOf } from '#libs/persistence';

/** What an event is made from: its type, its data and its CloudEvent attributes. */
export interface EventInput<T extends EventType = EventType> {
  type: T;
  data: EventMap[T];
  meta: { orgid: string; livemode: boolean; subject?: string };
}

/** One database transaction of a use case; the events it emits commit with it. */
export interface Tx {
  readonly manager: EntityManager;
  emit<T extends EventType>(type: T, data: EventMap[T], meta: EventInput<T>['meta']): Promise<void>;
  /** Several events, in order (all the events of a transaction go in one statement before it commits). */
  emitAll(events: readonly EventInput[]): Promise<void>;
}

/**
 * An app's transactional outbox: a state change and its events commit in one transaction,
 * and the relay publishes the events right after the commit (and on every poll after a crash).
 */
export class Outbox {
  private readonly relay: OutboxRelay;

  constructor(
    private readonly dataSource: DataSource,
    private readonly schema: string,
    private readonly source: string,
    bus: Bus,
    logger: BusLogger,
    metrics: Metrics,
  ) {
    this.relay = new OutboxRelay({ dataSource, schema, bus, logger });
    this.measureLag(metrics, logger);
  }

  start(): void {
    this.relay.start();
  }

  stop(): Promise<void> {
    return this.relay.stop();
  }

  /** Outbox lag, read at scrape time: events committed and not yet published, and the age of the oldest. */
  private measureLag(metrics: Metrics, logger: BusLogger): void {
    const backlog = sharedRead(async () => {
      const [row] = await rowsOf<{ pending: number; age: number }>(
        this.dataSource,
        `SELECT count(*)::int AS "pending", coalesce(extract(epoch FROM now() - min("created_at")), 0)::float AS "age"
         FROM ${qualified(this.schema, 'outbox')} WHERE "published_at" IS NULL`,
      );
      return row!;
    });
    const onError = (err: unknown) => logger.warn({ err }, 'outbox lag not read');
    const schema = { schema: this.schema };
    metrics.gauge(
      'outbox_pending_events',
      'Events committed to the outbox and not yet published',
      ['schema'],
      async (gauge) => gauge.set(schema, (await backlog()).pending),
      onError,
    );
    metrics.gauge(
      'outbox_oldest_pending_seconds',
      'Age of the oldest event not yet published (0 when none)',
      ['schema'],
      async (gauge) => gauge.set(schema, (await backlog()).age),
      onError,
    );
  }

  /**
   * Runs the work in one transaction. The events it emits are recorded as they are emitted (with
   * the request and trace they are emitted in), inserted together in one statement once the work
   * is done, and commit with it.
   */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const emitted: CausedEvent[] = [];
    let done = false;
    const result = await this.dataSource.transaction(async (manager) => {
      const emitAll = async (events: readonly EventInput[]) => {
        if (done) throw new Error("an event must be emitted before its transaction's work returns");
        emitted.push(...events.map(({ type, data, meta }) => caused(cloudEvent(this.source, type, data, meta))));
      };
      const answer = await work({ manager, emit: (type, data, meta) => emitAll([{ type, data, meta } as EventInput]), emitAll });
      done = true;
      await enqueueEvents(manager, this.schema, emitted);
      return answer;
    });
    if (emitted.length > 0) this.relay.kick();
    return result;
  }
}
