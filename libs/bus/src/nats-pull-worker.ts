import { setTimeout as delay } from 'node:timers/promises';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import { ClosedConnectionError } from '@nats-io/transport-node';
import type { CloudEvent, EventType } from '#libs/contracts';
import type { EventHandler } from './bus.js';
import type { BusLogger } from './envelope.js';
import { parseJson } from './json.js';
import { handleEvent } from './nats-context.js';

const RESUME_DELAY_MS = 1000;
const MAX_REDELIVERY_DELAY_MS = 60_000;

/** How long the server waits before redelivering after the nth failed attempt: 100 ms, doubling, at most a minute. */
export function redeliveryDelay(attempt: number): number {
  return Math.min(100 * 2 ** (attempt - 1), MAX_REDELIVERY_DELAY_MS);
}

export interface PullWorkerOptions {
  durable: string;
  /** Starts pulling from the durable consumer (the client re-pulls by itself after a reconnect). */
  open: () => Promise<ConsumerMessages>;
  /** The subjects this member handles; anything else the server sends is acked unseen. */
  subjects: ReadonlySet<string>;
  maxDeliver: number;
  /** Events handled at once, taken in the order they arrive. */
  concurrency: number;
  logger: BusLogger;
}

/**
 * One member of a durable consumer: hands up to `concurrency` events at once to the handler, in
 * the order they arrive, acks each after its handler resolves, naks with a growing delay when it throws, and parks (terms) the event once it
 * has been delivered maxDeliver times. Resumes pulling if the message stream ever ends.
 */
export class PullWorker<T extends EventType> {
  private readonly stopping = new AbortController();
  private messages?: ConsumerMessages;
  private readonly done: Promise<void>;

  constructor(
    private readonly options: PullWorkerOptions,
    private readonly handler: EventHandler<T>,
  ) {
    this.done = this.run();
  }

  /** Stops pulling, hands buffered events back to the server and waits for the running handlers. */
  async stop(): Promise<void> {
    this.stopping.abort();
    void this.messages?.close();
    await this.done;
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        this.messages = await this.options.open();
        if (this.stopped) void this.messages.close();
        await this.handleAll(this.messages);
      } catch (err) {
        if (err instanceof ClosedConnectionError) return;
        this.options.logger.warn({ err, durable: this.options.durable }, 'event consumer interrupted; resuming');
      }
      await delay(RESUME_DELAY_MS, undefined, { signal: this.stopping.signal }).catch(() => undefined);
    }
  }

  /** Hands the messages to the handler, `concurrency` at once, until they end; then waits for the handlers still running. */
  private async handleAll(messages: ConsumerMessages): Promise<void> {
    const running = new Set<Promise<void>>();
    try {
      for await (const msg of messages) {
        if (this.stopped) {
          msg.nak();
          continue;
        }
        const handling: Promise<void> = this.handle(msg)
          .catch((err: unknown) => this.unanswered(err))
          .finally(() => running.delete(handling));
        running.add(handling);
        if (running.size >= this.options.concurrency) await Promise.race(running);
      }
    } finally {
      await Promise.allSettled(running);
    }
  }

  /** An ack, nak or term that could not be sent: the server redelivers the event after its ack wait. */
  private unanswered(err: unknown): void {
    if (err instanceof ClosedConnectionError) return;
    this.options.logger.warn({ err, durable: this.options.durable }, 'event left unacknowledged; it will be redelivered');
  }

  private async handle(msg: JsMsg): Promise<void> {
    const { durable, logger, maxDeliver } = this.options;
    if (!this.options.subjects.has(msg.subject)) return msg.ack();
    const event = parseJson(msg.data) as CloudEvent<T> | undefined;
    if (event === undefined) {
      logger.error({ durable, subject: msg.subject, seq: msg.seq }, 'malformed event; event parked');
      return msg.term();
    }
    try {
      await handleEvent(msg.headers, event, this.handler);
      msg.ack();
    } catch (err) {
      const attempt = msg.info.deliveryCount;
      const context = { err, durable, eventId: event.id, type: event.type, attempt };
      if (attempt >= maxDeliver) {
        logger.error(context, 'event handler failed; event parked');
        msg.term();
      } else {
        logger.warn(context, 'event handler failed; redelivering');
        msg.nak(redeliveryDelay(attempt));
      }
    }
  }
}
