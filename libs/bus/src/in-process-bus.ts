import {
  type CloudEvent,
  deadlineOf,
  type EventType,
  type HandlersOf,
  type RequestOf,
  type ResponseOf,
  type ServiceName,
  type Subject,
} from '#libs/contracts';
import {
  type Bus,
  type ConsumeOptions,
  type ConsumerBacklog,
  DEFAULT_MAX_DELIVER,
  type EventHandler,
  type JsonText,
  type RequestOptions,
  type Subscription,
} from './bus.js';
import {
  type BusLogger,
  checkHandlers,
  dispatch,
  malformedReply,
  noResponderProblem,
  replyDataText,
  type ReplyEnvelope,
  replyText,
  timeoutProblem,
  unwrapReply,
} from './envelope.js';
import { InFlight } from './in-flight.js';

interface Group {
  types: Set<EventType>;
  handlers: EventHandler[];
  next: number;
  maxDeliver: number;
  /** Events published while the group had no member, as a durable consumer keeps them. */
  backlog: CloudEvent[];
  /** Events handed to a member and not yet handled. */
  delivering: number;
}

const REDELIVERY_DELAY_MS = 50;

/**
 * The bus of the all-in-one mode: same semantics as NATS within one process. Payloads are
 * copied through JSON as on the wire; events are delivered asynchronously, at least once,
 * to each durable group (one member per event, kept while it has none) and to every
 * broadcast subscriber.
 */
export class InProcessBus implements Bus {
  private readonly handlers = new Map<Subject, (req: never) => Promise<unknown>>();
  private readonly groups = new Map<string, Group>();
  private readonly listeners = new Set<{ types: Set<EventType>; handler: EventHandler }>();
  private readonly inFlight = new InFlight();
  private closed = false;

  constructor(
    private readonly logger: BusLogger,
    private readonly defaultTimeoutMs = 5000,
  ) {}

  async request<S extends Subject>(subject: S, payload: RequestOf<S>, options: RequestOptions = {}): Promise<ResponseOf<S>> {
    return unwrapReply<ResponseOf<S>>(JSON.parse(await this.exchange(subject, payload, options)) as ReplyEnvelope);
  }

  async requestJson<S extends Subject>(subject: S, payload: RequestOf<S>, options: RequestOptions = {}): Promise<JsonText<ResponseOf<S>>> {
    const data = replyDataText(await this.exchange(subject, payload, options));
    if (data === undefined) throw malformedReply(subject);
    return data;
  }

  /** The reply's JSON text, as NATS would carry it: what crosses the bus is always a copy. */
  private async exchange(subject: Subject, payload: unknown, options: RequestOptions): Promise<string> {
    const handler = this.handlers.get(subject);
    if (!handler || this.closed) throw noResponderProblem(subject);
    const ms = options.timeoutMs ?? deadlineOf(subject) ?? this.defaultTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeoutProblem(subject, ms)), ms);
    });
    try {
      return replyText(await Promise.race([dispatch(handler, subject, copy(payload), this.logger), timeout]));
    } finally {
      clearTimeout(timer);
    }
  }

  async serve<O extends ServiceName>(owner: O, handlers: HandlersOf<O>): Promise<Subscription> {
    checkHandlers(owner, handlers);
    const entries = Object.entries(handlers) as [Subject, (req: never) => Promise<unknown>][];
    for (const [subject] of entries) {
      if (this.handlers.has(subject)) throw new Error(`Subject ${subject} is already served`);
    }
    for (const [subject, handler] of entries) this.handlers.set(subject, handler);
    return {
      stop: async () => {
        for (const [subject] of entries) this.handlers.delete(subject);
      },
    };
  }

  async publish(event: CloudEvent): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    for (const group of this.groups.values()) {
      if (group.types.has(event.type)) this.toGroup(group, copy(event));
    }
    for (const listener of this.listeners) {
      if (listener.types.has(event.type)) this.inFlight.track(this.deliver(listener.handler, copy(event), 1));
    }
  }

  async consume<T extends EventType>(options: ConsumeOptions<T>, typed: EventHandler<T>): Promise<Subscription> {
    const handler = anyType(typed);
    const group = this.groups.get(options.durable) ?? {
      types: new Set(options.types),
      handlers: [],
      next: 0,
      maxDeliver: options.maxDeliver ?? DEFAULT_MAX_DELIVER,
      backlog: [],
      delivering: 0,
    };
    group.handlers.push(handler);
    this.groups.set(options.durable, group);
    for (const event of group.backlog.splice(0)) this.toGroup(group, event);
    return {
      stop: async () => {
        group.handlers = group.handlers.filter((h) => h !== handler);
      },
    };
  }

  async broadcast<T extends EventType>(types: readonly T[], handler: EventHandler<T>): Promise<Subscription> {
    const listener = { types: new Set<EventType>(types), handler: anyType(handler) };
    this.listeners.add(listener);
    return { stop: async () => void this.listeners.delete(listener) };
  }

  async backlog(durable: string): Promise<ConsumerBacklog> {
    const group = this.groups.get(durable);
    return { pending: group?.backlog.length ?? 0, unacknowledged: group?.delivering ?? 0 };
  }

  async ping(): Promise<void> {
    if (this.closed) throw new Error('bus closed');
  }

  /** Waits until every event published so far has been handled (tests, shutdown). */
  async drain(): Promise<void> {
    await this.inFlight.settled();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
    this.handlers.clear();
    this.groups.clear();
    this.listeners.clear();
  }

  private toGroup(group: Group, event: CloudEvent): void {
    if (group.handlers.length === 0) return void group.backlog.push(event);
    const handler = group.handlers[group.next++ % group.handlers.length]!;
    group.delivering++;
    this.inFlight.track(this.deliver(handler, event, group.maxDeliver).finally(() => group.delivering--));
  }

  private async deliver(handler: EventHandler, event: CloudEvent, maxDeliver: number): Promise<void> {
    await new Promise((r) => setImmediate(r));
    for (let attempt = 1; attempt <= maxDeliver; attempt++) {
      try {
        await handler(event);
        return;
      } catch (err) {
        if (attempt === maxDeliver) {
          this.logger.error({ err, eventId: event.id, type: event.type, attempt }, 'event handler failed; event parked');
          return;
        }
        this.logger.warn({ err, eventId: event.id, type: event.type, attempt }, 'event handler failed; redelivering');
        await new Promise((r) => setTimeout(r, REDELIVERY_DELAY_MS * attempt));
      }
    }
  }
}

/** A handler kept among others of other types: it is only ever handed events of the types it subscribed to (publish filters by type). */
function anyType<T extends EventType>(handler: EventHandler<T>): EventHandler {
  return handler as EventHandler;
}

function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
