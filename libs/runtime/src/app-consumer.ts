import type { OnApplicationShutdown } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { consumeOnce, type Subscription } from '#libs/bus';
import type { CloudEvent, EventType } from '#libs/contracts';
import type { AppContext } from './app-definition.js';

export interface AppConsumerOptions<T extends EventType = EventType> {
  /** Durable consumer name, shared by the app's replicas. */
  consumer: string;
  types: readonly T[];
  /** Runs after the transaction that applied a new event has committed. */
  afterCommit?: (event: CloudEvent<T>) => void;
}

/** consumeOnce on the app's own bus, database and schema (processed_events lives there). */
function consumeOnceFor<T extends EventType, P>(
  context: AppContext,
  options: AppConsumerOptions<T>,
  handler: (manager: EntityManager, event: CloudEvent<T>, prepared: P) => Promise<void>,
  prepare: (event: CloudEvent<T>) => Promise<P>,
): Promise<Subscription> {
  const { dataSource } = context;
  const schema = (dataSource?.options as { schema?: string } | undefined)?.schema;
  if (!dataSource || !schema) throw new Error(`${context.name} consumes events once only with a schema of its own`);
  return consumeOnce({ ...options, bus: context.bus, dataSource, schema, logger: context.logger }, handler, prepare);
}

/**
 * A provider that applies events once (consumeOnceFor) from start() until the app shuts down.
 * Subclasses name their consumer and types T, and apply each event (of one of those types) in the
 * given transaction, with what `prepare` read for it before (P).
 */
export abstract class EventConsumer<T extends EventType, P = undefined> implements OnApplicationShutdown {
  private subscription?: Subscription;

  protected constructor(
    private readonly context: AppContext,
    private readonly options: AppConsumerOptions<T>,
  ) {}

  async start(): Promise<void> {
    this.subscription = await consumeOnceFor<T, P>(
      this.context,
      this.options,
      (manager, event, prepared) => this.apply(manager, event, prepared),
      (event) => this.prepare(event),
    );
  }

  /** What apply needs read before its transaction (from other apps); nothing by default. */
  protected prepare(_event: CloudEvent<T>): Promise<P> {
    return Promise.resolve(undefined as P);
  }

  protected abstract apply(manager: EntityManager, event: CloudEvent<T>, prepared: P): Promise<void>;

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }
}
