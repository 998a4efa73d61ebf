import type { DataSource, EntityManager } from 'typeorm';
import { OutboxRelay, enqueueEvent, type Bus, type BusLogger } from '#libs/bus';
import { cloudEvent, type EventMap, type EventType } from '#libs/contracts';

/** One database transaction of a use case; the events it emits commit with it. */
export interface Tx {
  readonly manager: EntityManager;
  emit<T extends EventType>(type: T, data: EventMap[T], meta: { orgid: string; livemode: boolean; subject?: string }): Promise<void>;
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
  ) {
    this.relay = new OutboxRelay({ dataSource, schema, bus, logger });
  }

  start(): void {
    this.relay.start();
  }

  stop(): Promise<void> {
    return this.relay.stop();
  }

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let emitted = false;
    const result = await this.dataSource.transaction((manager) =>
      work({
        manager,
        emit: async (type, data, meta) => {
          await enqueueEvent(manager, this.schema, cloudEvent(this.source, type, data, meta));
          emitted = true;
        },
      }),
    );
    if (emitted) this.relay.kick();
    return result;
  }
}
