import type { CloudEvent, EventMap, EventType } from './events.js';
import { newId } from './ids.js';

/** A new CloudEvent for one state change; its id is the dedupe key end to end. */
export function cloudEvent<T extends EventType>(
  source: string,
  type: T,
  data: EventMap[T],
  meta: { orgid: string; livemode: boolean; subject?: string },
): CloudEvent<T> {
  return {
    specversion: '1.0',
    id: newId(),
    source,
    type,
    time: new Date().toISOString(),
    datacontenttype: 'application/json',
    ...(meta.subject && { subject: meta.subject }),
    orgid: meta.orgid,
    livemode: meta.livemode,
    data,
  };
}
