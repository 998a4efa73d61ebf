import type { EntityManager } from 'typeorm';
import { consumeOnce, type Subscription } from '#libs/bus';
import type { CloudEvent, EventType } from '#libs/contracts';
import type { AppContext } from './app-definition.js';

export interface AppConsumerOptions {
  /** Durable consumer name, shared by the app's replicas. */
  consumer: string;
  types: readonly EventType[];
  /** Runs after the transaction that applied a new event has committed. */
  afterCommit?: (event: CloudEvent) => void;
}

/** consumeOnce on the app's own bus, database and schema (processed_events lives there). */
export function consumeOnceFor(
  context: AppContext,
  options: AppConsumerOptions,
  handler: (manager: EntityManager, event: CloudEvent) => Promise<void>,
): Promise<Subscription> {
  const { dataSource } = context;
  const schema = (dataSource?.options as { schema?: string } | undefined)?.schema;
  if (!dataSource || !schema) throw new Error(`${context.name} consumes events once only with a schema of its own`);
  return consumeOnce({ ...options, bus: context.bus, dataSource, schema, logger: context.logger }, handler);
}
