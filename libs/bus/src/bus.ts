import type { CloudEvent, EventType, HandlersOf, RequestOf, ResponseOf, ServiceName, Subject, SubjectsOf } from '#libs/contracts';

export interface RequestOptions {
  /**
   * Deadline for the reply; on expiry the call fails with internal_error (safe to retry). By
   * default the subject's own deadline in the subject catalog, else the bus's default.
   */
  timeoutMs?: number;
}

/** The JSON text of a T, as it crossed the bus. */
export type JsonText<T> = string & { readonly jsonOf?: T };

/** Handles the events of the types it subscribed to, T (any type by default). */
export type EventHandler<T extends EventType = EventType> = (event: CloudEvent<T>) => Promise<void>;

export interface Subscription {
  stop(): Promise<void>;
}

/** ConsumeOptions.maxDeliver when not given. */
export const DEFAULT_MAX_DELIVER = 10;

/** How far a durable consumer is behind: events not yet delivered, and delivered but not yet acknowledged. */
export interface ConsumerBacklog {
  pending: number;
  unacknowledged: number;
}

export interface ConsumeOptions<T extends EventType = EventType> {
  /**
   * Durable consumer name; replicas sharing it share the work. A new durable on NATS starts at
   * the oldest event the stream keeps (7 days), so nothing published before its first boot is missed.
   */
  durable: string;
  types: readonly T[];
  /** Deliveries of one event, the first included, before it is parked: logged and never delivered again. */
  maxDeliver?: number;
  /**
   * Events one member hands to its handler before the first of them is handled (default 1: one
   * after the other). Each is still acked only when its own handler resolves; a handler given
   * more than one must be safe to run concurrently (consumeOnce batches them).
   */
  concurrency?: number;
}

/**
 * The message bus between apps: request/reply for commands and queries, a durable event
 * stream for domain events. NatsBus in services mode, InProcessBus in all-in-one mode; both
 * keep the same semantics (see bus.conformance.ts).
 */
export interface Bus {
  /** Sends a request and waits for the reply. A problem reply is thrown as ProblemError. */
  request<S extends Subject>(subject: S, payload: RequestOf<S>, options?: RequestOptions): Promise<ResponseOf<S>>;

  /**
   * As request, answering the reply as the JSON text it crossed the bus as, never parsed: for an
   * edge that only passes it on (the text is what JSON.stringify made of the handler's answer).
   */
  requestJson<S extends Subject>(subject: S, payload: RequestOf<S>, options?: RequestOptions): Promise<JsonText<ResponseOf<S>>>;

  /**
   * Serves every subject of one owner (queue group = owner, so replicas share the load).
   * Handlers throw ProblemError for contract errors; anything else is answered as internal_error.
   */
  serve<O extends ServiceName>(owner: O, handlers: HandlersOf<O>): Promise<Subscription>;

  /** Publishes one event to the stream; the event id dedupes republishing (Nats-Msg-Id). */
  publish(event: CloudEvent): Promise<void>;

  /** Durable, at-least-once consumption; an event is acked after its handler resolves. */
  consume<T extends EventType>(options: ConsumeOptions<T>, handler: EventHandler<T>): Promise<Subscription>;

  /** Every replica gets every event (no durability): for cache eviction. */
  broadcast<T extends EventType>(types: readonly T[], handler: EventHandler<T>): Promise<Subscription>;

  /** The backlog of a durable consumer (shared by every replica), for the consumer lag gauges. */
  backlog(durable: string): Promise<ConsumerBacklog>;

  /** Rejects when the bus is not usable (readiness). */
  ping(): Promise<void>;

  close(): Promise<void>;
}

export type { SubjectsOf };
