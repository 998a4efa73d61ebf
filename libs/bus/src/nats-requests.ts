import { createInbox, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';

/** How a request ended without a reply. */
export class RequestFailure extends Error {
  constructor(readonly reason: 'timeout' | 'no_responders' | 'closed') {
    super(`request failed: ${reason}`);
  }
}

interface Pending {
  resolve(msg: Msg): void;
  reject(err: RequestFailure): void;
  timer: NodeJS.Timeout;
}

/** The status NATS answers with, headers only, when nobody listens on the subject. */
const NO_RESPONDERS = 503;

/**
 * Request/reply over one inbox subscription per connection: each request's reply subject is the
 * inbox plus a token, and the answer is matched by that token. The client's own request() does
 * the same but builds an Error per request (for stack traces it has no use for here), which
 * made it a measurable part of every gateway call.
 */
export class NatsRequests {
  private readonly inbox: string;
  private readonly pending = new Map<string, Pending>();
  private readonly subscription: Subscription;
  private next = 0;

  /** `inboxPrefix`: the connection's own (see inboxPrefixOf), the only inboxes its NATS user may read. */
  constructor(
    private readonly nc: NatsConnection,
    inboxPrefix: string,
  ) {
    this.inbox = `${createInbox(inboxPrefix)}.`;
    this.subscription = nc.subscribe(`${this.inbox}*`, {
      callback: (err, msg) => {
        if (err === null) this.settle(msg);
      },
    });
  }

  request(subject: string, data: string, options: { timeoutMs: number; headers?: MsgHdrs }): Promise<Msg> {
    const token = (this.next++).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(token, 'timeout'), options.timeoutMs);
      this.pending.set(token, { resolve, reject, timer });
      try {
        this.nc.publish(subject, data, { reply: `${this.inbox}${token}`, headers: options.headers });
      } catch {
        this.fail(token, 'closed');
      }
    });
  }

  /** Fails every request still waiting (the connection is closing). */
  close(): void {
    this.subscription.unsubscribe();
    for (const token of [...this.pending.keys()]) this.fail(token, 'closed');
  }

  private settle(msg: Msg): void {
    const token = msg.subject.slice(this.inbox.length);
    const pending = this.pending.get(token);
    if (!pending) return;
    this.pending.delete(token);
    clearTimeout(pending.timer);
    if (msg.data.length === 0 && msg.headers?.code === NO_RESPONDERS) pending.reject(new RequestFailure('no_responders'));
    else pending.resolve(msg);
  }

  private fail(token: string, reason: RequestFailure['reason']): void {
    const pending = this.pending.get(token);
    if (!pending) return;
    this.pending.delete(token);
    clearTimeout(pending.timer);
    pending.reject(new RequestFailure(reason));
  }
}
