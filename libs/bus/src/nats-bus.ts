import { jetstream, type JetStreamClient, type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, type ConnectionOptions, type Msg, type NatsConnection } from '@nats-io/transport-node';
import {
  type CloudEvent,
  deadlineOf,
  eventSubject,
  type EventType,
  type HandlersOf,
  type RequestOf,
  type ResponseOf,
  type ServiceName,
  type Subject,
} from '#libs/contracts';
import { acceptRequestId, failSpan, inSpan, REQUEST_ID_HEADER, runWithRequestId, SpanKind } from '#libs/observability';
import { ProblemError } from '#libs/problem';
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
import { parseJson, textOf } from './json.js';
import { handleEvent, messageHeaders, messagingAttributes, senderContext } from './nats-context.js';
import { inboxPrefixOf } from './nats-permissions.js';
import { PullWorker } from './nats-pull-worker.js';
import { NatsRequests, RequestFailure } from './nats-requests.js';
import { consumerFilter, ensureDurable, ensureStream } from './nats-stream.js';

export interface NatsBusOptions {
  url: string;
  /** Put before every subject: '' in production, a random `t1a2b3.` per test run. */
  prefix: string;
  /** The JetStream stream capturing `<prefix>events.>` (default EVENTS). */
  streamName?: string;
  /** The connection name the server shows: the app. */
  name: string;
  logger: BusLogger;
  defaultTimeoutMs: number;
  /** The app's own NATS user and password; absent for a server without authorization. */
  credentials?: { user: string; password: string };
  /** TLS to the server: required when set, verified against caFile (else the system's CAs). A tls:// url asks for it too. */
  tls?: { caFile?: string };
}

/** The connection options of nats.js for ours: credentials when given, TLS when asked for by the options or the url. */
export function natsConnectionOptions(options: Pick<NatsBusOptions, 'url' | 'name' | 'credentials' | 'tls'>): ConnectionOptions {
  const wantsTls = options.tls !== undefined || options.url.split(',').some((server) => server.trim().startsWith('tls://'));
  return {
    servers: options.url.split(',').map((server) => server.trim().replace(/^tls:\/\//, 'nats://')),
    name: options.name,
    // Replies come to this app's own inboxes, the only ones its NATS user may read.
    inboxPrefix: inboxPrefixOf(options.name),
    noAsyncTraces: true,
    maxReconnectAttempts: -1,
    ...(options.credentials && { user: options.credentials.user, pass: options.credentials.password }),
    ...(wantsTls && { tls: options.tls?.caFile ? { caFile: options.tls.caFile } : {} }),
  };
}

type Handler = (req: never) => Promise<unknown>;

const PULL_BATCH = 64;

/** The bus of the services mode: core NATS request/reply and a JetStream event stream. */
export class NatsBus implements Bus {
  private readonly subscriptions = new Set<Subscription>();
  private readonly logger: BusLogger;
  private readonly requests: NatsRequests;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: NatsBusOptions & { streamName: string },
  ) {
    this.logger = options.logger;
    this.requests = new NatsRequests(nc, inboxPrefixOf(options.name));
  }

  /** Connects (retrying for ever after a disconnect) and creates or updates the event stream. */
  static async connect(options: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect(natsConnectionOptions(options));
    try {
      const jsm = await jetstreamManager(nc);
      const streamName = options.streamName ?? 'EVENTS';
      await ensureStream(jsm, streamName, `${options.prefix}events.>`);
      const bus = new NatsBus(nc, jetstream(nc), jsm, { ...options, streamName });
      void bus.logConnectionChanges();
      return bus;
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  request<S extends Subject>(subject: S, payload: RequestOf<S>, options: RequestOptions = {}): Promise<ResponseOf<S>> {
    return this.exchange(subject, payload, options, (reply) => {
      const envelope = parseJson(reply.data) as ReplyEnvelope | undefined;
      if (envelope === undefined) throw malformedReply(subject);
      return unwrapReply<ResponseOf<S>>(envelope);
    });
  }

  requestJson<S extends Subject>(subject: S, payload: RequestOf<S>, options: RequestOptions = {}): Promise<JsonText<ResponseOf<S>>> {
    return this.exchange(subject, payload, options, (reply) => {
      const data = replyDataText(textOf(reply.data));
      if (data === undefined) throw malformedReply(subject);
      return data;
    });
  }

  /** Sends a request in its span and reads the reply with `read`; no reply in time, or no responder, is a problem. */
  private exchange<S extends Subject, T>(subject: S, payload: RequestOf<S>, options: RequestOptions, read: (reply: Msg) => T): Promise<T> {
    return inSpan(`request ${subject}`, { kind: SpanKind.CLIENT, attributes: messagingAttributes(subject) }, async () => {
      const timeout = options.timeoutMs ?? deadlineOf(subject) ?? this.options.defaultTimeoutMs;
      let reply: Msg;
      try {
        reply = await this.requests.request(this.prefixed(subject), JSON.stringify(payload), {
          timeoutMs: timeout,
          headers: messageHeaders(),
        });
      } catch (err) {
        if (err instanceof RequestFailure && err.reason === 'timeout') throw timeoutProblem(subject, timeout);
        if (!(err instanceof RequestFailure && err.reason === 'no_responders')) this.logger.warn({ err, subject }, 'bus request failed');
        throw noResponderProblem(subject);
      }
      return read(reply);
    });
  }

  async serve<O extends ServiceName>(owner: O, handlers: HandlersOf<O>): Promise<Subscription> {
    checkHandlers(owner, handlers);
    const entries = Object.entries(handlers) as [Subject, Handler][];
    return this.listen(
      entries.map(([subject, handler]) => ({ subject: this.prefixed(subject), onMessage: (msg) => this.answer(msg, subject, handler) })),
      owner,
    );
  }

  publish(event: CloudEvent): Promise<void> {
    const attributes = { ...messagingAttributes(eventSubject(event.type)), 'messaging.message.id': event.id };
    return inSpan(`send ${event.type}`, { kind: SpanKind.PRODUCER, attributes }, async () => {
      const h = messageHeaders();
      h.set('ce-type', event.type);
      h.set('ce-id', event.id);
      await this.js.publish(this.eventSubject(event.type), JSON.stringify(event), { msgID: event.id, headers: h });
    });
  }

  async consume<T extends EventType>(options: ConsumeOptions<T>, handler: EventHandler<T>): Promise<Subscription> {
    const { durable, types, maxDeliver = DEFAULT_MAX_DELIVER, concurrency = 1 } = options;
    const { streamName } = this.options;
    const subjects = types.map((type) => this.eventSubject(type));
    const filter = consumerFilter(subjects, `${this.options.prefix}events.>`, this.nc.info?.version ?? '0.0.0');
    await ensureDurable(this.jsm, streamName, durable, filter);
    const worker = new PullWorker(
      {
        durable,
        open: async () => (await this.js.consumers.get(streamName, durable)).consume({ max_messages: PULL_BATCH }),
        subjects: new Set(subjects),
        maxDeliver,
        concurrency,
        logger: this.logger,
      },
      handler,
    );
    return this.register(() => worker.stop());
  }

  async broadcast<T extends EventType>(types: readonly T[], handler: EventHandler<T>): Promise<Subscription> {
    return this.listen(
      types.map((type) => ({ subject: this.eventSubject(type), onMessage: (msg) => this.notify(msg, handler) })),
      undefined,
    );
  }

  async backlog(durable: string): Promise<ConsumerBacklog> {
    const info = await this.jsm.consumers.info(this.options.streamName, durable);
    return { pending: info.num_pending, unacknowledged: info.num_ack_pending };
  }

  async ping(): Promise<void> {
    await this.nc.rtt();
  }

  /** Stops every subscription (waiting for running handlers), then drains the connection. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.requests.close();
    if (!this.nc.isClosed() && !this.nc.isDraining()) await this.nc.drain();
  }

  private prefixed(subject: string): string {
    return `${this.options.prefix}${subject}`;
  }

  private eventSubject(type: EventType): string {
    return this.prefixed(eventSubject(type));
  }

  private async answer(msg: Msg, subject: Subject, handler: Handler): Promise<void> {
    const options = { kind: SpanKind.SERVER, attributes: messagingAttributes(subject) };
    await inSpan(
      `process ${subject}`,
      options,
      (span) =>
        runWithRequestId(acceptRequestId(msg.headers?.get(REQUEST_ID_HEADER)), async () => {
          const payload = parseJson(msg.data);
          const reply: ReplyEnvelope =
            payload === undefined
              ? {
                  ok: false,
                  problem: ProblemError.validation(
                    [{ path: 'body', message: 'Malformed JSON' }],
                    'The request is not valid JSON.',
                  ).toWire(),
                }
              : await dispatch(handler, subject, payload, this.logger);
          if (!reply.ok && ProblemError.fromWire(reply.problem).status >= 500) failSpan(span);
          msg.respond(replyText(reply));
        }),
      senderContext(msg.headers),
    );
  }

  private async notify<T extends EventType>(msg: Msg, handler: EventHandler<T>): Promise<void> {
    const event = parseJson(msg.data) as CloudEvent<T> | undefined;
    if (event === undefined) return this.logger.error({ subject: msg.subject }, 'malformed event; ignored');
    await handleEvent(msg.headers, event, handler);
  }

  /** Core NATS subscriptions whose handlers run concurrently; failures are logged, never thrown. */
  private async listen(
    targets: { subject: string; onMessage: (msg: Msg) => Promise<void> }[],
    queue: string | undefined,
  ): Promise<Subscription> {
    const inFlight = new InFlight();
    const subs = targets.map(({ subject, onMessage }) =>
      this.nc.subscribe(subject, {
        queue,
        callback: (err, msg) => {
          if (err) return this.logger.error({ err, subject }, 'bus subscription failed');
          inFlight.track(onMessage(msg).catch((failure: unknown) => this.logger.error({ err: failure, subject }, 'bus handler failed')));
        },
      }),
    );
    await this.nc.flush();
    return this.register(async () => {
      await Promise.all(subs.map((s) => s.drain()));
      await inFlight.settled();
    });
  }

  private register(stop: () => Promise<void>): Subscription {
    let stopped: Promise<void> | undefined;
    const subscription: Subscription = {
      stop: () => {
        this.subscriptions.delete(subscription);
        return (stopped ??= stop());
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  private async logConnectionChanges(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect' || status.type === 'reconnect') this.logger.warn({ status }, `nats ${status.type}`);
      // A permissions violation: the server refused a publish or subscription of this app.
      if (status.type === 'error') this.logger.error({ err: status.error }, 'nats refused an operation');
    }
  }
}
