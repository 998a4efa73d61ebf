import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** How the receiver answers one request: a status, headers, and an optional delay. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface Receiver {
  /** A URL on this receiver; `path` tells endpoints apart. */
  url(path?: string): string;
  received: Received[];
  /** Answers for `path` in order (the last one repeats); 200 when none is set. */
  answer(path: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 that records every request and answers as told. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, Answer[]>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body, at: Date.now() });
      const script = scripts.get(path) ?? [];
      const answer = (script.length > 1 ? script.shift() : script[0]) ?? { status: 200 };
      setTimeout(
        () => res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(`answered ${answer.status}`),
        answer.delayMs ?? 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url: (path = '/hooks') => `${origin}${path}`,
    received,
    answer: (path, ...answers) => scripts.set(path, answers),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The payload of a received webhook, verified with the standardwebhooks package (throws when it does not verify). */
export function verifyWebhook(secret: string, message: Pick<Received, 'headers' | 'body'>): unknown {
  return new Webhook(secret).verify(message.body, {
    'webhook-id': String(message.headers['webhook-id']),
    'webhook-timestamp': String(message.headers['webhook-timestamp']),
    'webhook-signature': String(message.headers['webhook-signature']),
  });
}
