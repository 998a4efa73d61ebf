import type { EventType } from '#libs/contracts';
import type { EventInput } from '#libs/runtime';

/** An event to emit with a write (a transaction's events are recorded in one statement before it commits), always about a subject. */
export interface PendingEvent<T extends EventType = EventType> extends EventInput<T> {
  meta: { orgid: string; livemode: boolean; subject: string };
}
