import type { EventMap, EventType } from '#libs/contracts';
import type { Tx } from '#libs/runtime';

/** An event to emit with a write: type, data and CloudEvent attributes. */
export interface PendingEvent<T extends EventType = EventType> {
  type: T;
  data: EventMap[T];
  meta: { orgid: string; livemode: boolean; subject: string };
}

/** Records the events in the transaction of the change they describe, in order. */
export async function emitAll(tx: Tx, events: readonly PendingEvent[]): Promise<void> {
  for (const event of events) await tx.emit(event.type, event.data, event.meta);
}
