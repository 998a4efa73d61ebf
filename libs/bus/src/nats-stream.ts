import { AckPolicy, DeliverPolicy, JetStreamApiError, type JetStreamManager, StorageType } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';

/** Within this window JetStream drops a second publish of an event id; beyond it, consumers' processed ids do. */
export const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
/** How long the stream keeps an event: a durable consumer created or resumed within it may be handed any of them again. */
export const MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const STREAM_NAME_IN_USE = 10058;

/** Creates the event stream, or brings an existing one to our subjects and limits. */
export async function ensureStream(jsm: JetStreamManager, name: string, subject: string): Promise<void> {
  const limits = { subjects: [subject], duplicate_window: nanos(DUPLICATE_WINDOW_MS), max_age: nanos(MAX_AGE_MS) };
  try {
    await jsm.streams.add({ name, storage: StorageType.File, ...limits });
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === STREAM_NAME_IN_USE)) throw err;
    await jsm.streams.update(name, limits);
  }
}

/** Both keys always set, so an update from one form to the other clears the old one. */
export interface ConsumerFilter {
  filter_subject: string | undefined;
  filter_subjects: string[] | undefined;
}

/**
 * The server-side filter for a durable: one subject, several (nats-server 2.10+), or on older
 * servers the whole events wildcard, leaving the rest to the worker's own subject check.
 */
export function consumerFilter(subjects: readonly string[], wildcard: string, serverVersion: string): ConsumerFilter {
  if (subjects.length === 1) return { filter_subject: subjects[0], filter_subjects: undefined };
  const [major = 0, minor = 0] = serverVersion.split('.').map(Number);
  if (major > 2 || (major === 2 && minor >= 10)) return { filter_subject: undefined, filter_subjects: [...subjects].sort() };
  return { filter_subject: wildcard, filter_subjects: undefined };
}

/** Creates the durable pull consumer, or updates its filter when its event types changed. */
export async function ensureDurable(jsm: JetStreamManager, stream: string, durable: string, filter: ConsumerFilter): Promise<void> {
  try {
    await jsm.consumers.add(stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: -1,
      ...filter,
    });
  } catch (err) {
    if (!(err instanceof JetStreamApiError)) throw err;
    await jsm.consumers.update(stream, durable, filter);
  }
}
