import { headers, type MsgHdrs } from '@nats-io/transport-node';
import { type CloudEvent, eventSubject, type EventType } from '#libs/contracts';
import {
  acceptRequestId,
  contextFromHeaders,
  currentRequestId,
  inSpan,
  REQUEST_ID_HEADER,
  runWithRequestId,
  SpanKind,
  traceContextHeaders,
} from '#libs/observability';
import type { EventHandler } from './bus.js';

/** The span attributes of a NATS message on `subject` (without the test prefix). */
export function messagingAttributes(subject: string) {
  return { 'messaging.system': 'nats', 'messaging.destination.name': subject };
}

/** Headers carrying the request id and the W3C trace context of the active span. */
export function messageHeaders(): MsgHdrs {
  const h = headers();
  const requestId = currentRequestId();
  if (requestId !== undefined) h.set(REQUEST_ID_HEADER, requestId);
  for (const [name, value] of Object.entries(traceContextHeaders())) h.set(name, value);
  return h;
}

/** The trace context a message's sender put in its headers. */
export function senderContext(h: MsgHdrs | undefined) {
  return contextFromHeaders((name) => (h?.has(name) ? h.get(name) : undefined));
}

/** Runs an event handler under the publisher's request id, in a consumer span of its trace. */
export function handleEvent<T extends EventType>(h: MsgHdrs | undefined, event: CloudEvent<T>, handler: EventHandler<T>): Promise<void> {
  const options = {
    kind: SpanKind.CONSUMER,
    attributes: { ...messagingAttributes(eventSubject(event.type)), 'messaging.message.id': event.id },
  };
  return inSpan(
    `process ${event.type}`,
    options,
    () => runWithRequestId(acceptRequestId(h?.get(REQUEST_ID_HEADER)), () => handler(event)),
    senderContext(h),
  );
}
