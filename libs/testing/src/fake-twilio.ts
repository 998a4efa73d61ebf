import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readBody } from './http-body.js';

/** `ok` answers like Twilio; `down` answers 503; `timeout` never answers; `unauthorized` answers 401. */
export type FakeTwilioMode = 'ok' | 'down' | 'timeout' | 'unauthorized';

/** A message the fake accepted. */
export interface FakeTwilioMessage {
  sid: string;
  to: string;
  from?: string;
  messagingServiceSid?: string;
  body: string;
  at: number;
}

export interface FakeTwilio {
  /** `http://127.0.0.1:PORT`, the provider's `apiBase`. */
  baseUrl: string;
  messages: FakeTwilioMessage[];
  /** Every request received, answered or not. */
  readonly requestCount: number;
  mode(mode: FakeTwilioMode): void;
  /** Messages to `number` answer 400 with this Twilio error code (21211 invalid 'To', 21610 unsubscribed…). */
  reject(number: string, code: number, message?: string): void;
  /** Answers each request after `ms` (0 by default). */
  delayMs(ms: number): void;
  /** Stops the server, dropping held connections. */
  close(): Promise<void>;
}

interface TwilioError {
  status: number;
  code: number;
  message: string;
}

const UNAUTHORIZED: TwilioError = { status: 401, code: 20003, message: 'Authenticate' };
const DOWN: TwilioError = { status: 503, code: 20500, message: 'Internal Server Error' };

const REJECTION_MESSAGES: Record<number, (to: string) => string> = {
  21211: (to) => `The 'To' number ${to} is not a valid phone number.`,
  21610: () => 'Attempt to send to unsubscribed recipient',
  21614: (to) => `'To' number ${to} is not a valid mobile number`,
};

const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

/** The `sid:token` pair of a basic authorization header. */
function basicCredentials(req: IncomingMessage): string | undefined {
  const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
  return scheme === 'Basic' && encoded ? Buffer.from(encoded, 'base64').toString('utf8') : undefined;
}

/** Twilio's Messages API on 127.0.0.1: checks auth and the form like Twilio, records what it accepts, and fails as told. */
export async function startFakeTwilio({ accountSid, authToken }: { accountSid: string; authToken: string }): Promise<FakeTwilio> {
  const messages: FakeTwilioMessage[] = [];
  const rejections = new Map<string, { code: number; message?: string }>();
  let requestCount = 0;
  let currentMode: FakeTwilioMode = 'ok';
  let delay = 0;

  /** The answer to one request: a status and a JSON body. */
  function answer(req: IncomingMessage, raw: string): { status: number; json: object } {
    const error = (e: TwilioError) => ({ status: e.status, json: e });
    if (currentMode === 'down') return error(DOWN);
    if (currentMode === 'unauthorized' || basicCredentials(req) !== `${accountSid}:${authToken}`) return error(UNAUTHORIZED);
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (MESSAGES_PATH.exec(path)?.[1] !== accountSid) {
      return error({ status: 404, code: 20404, message: `The requested resource ${path} was not found` });
    }
    if (req.method !== 'POST') return error({ status: 405, code: 20004, message: 'Method not allowed' });
    const form = new URLSearchParams(req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ? raw : '');
    const to = form.get('To');
    const body = form.get('Body');
    const from = form.get('From') ?? undefined;
    const messagingServiceSid = form.get('MessagingServiceSid') ?? undefined;
    if (!to) return error({ status: 400, code: 21604, message: "A 'To' phone number is required." });
    if (!body) return error({ status: 400, code: 21602, message: 'Message body is required.' });
    if (!from && !messagingServiceSid) return error({ status: 400, code: 21603, message: "A 'From' phone number is required." });
    const rejection = rejections.get(to);
    if (rejection) {
      const message = rejection.message ?? REJECTION_MESSAGES[rejection.code]?.(to) ?? 'Message rejected';
      return error({ status: 400, code: rejection.code, message });
    }
    const sid = `SM${randomBytes(16).toString('hex')}`;
    messages.push({ sid, to, from, messagingServiceSid, body, at: Date.now() });
    return {
      status: 201,
      json: {
        sid,
        status: 'queued',
        to,
        from: from ?? null,
        messaging_service_sid: messagingServiceSid ?? null,
        body,
        account_sid: accountSid,
      },
    };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requestCount += 1;
    readBody(req).then(
      (bytes) => {
        const raw = bytes.toString('utf8');
        if (currentMode === 'timeout') return;
        const { status, json } = answer(req, raw);
        const timer = setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json)), delay);
        res.on('close', () => clearTimeout(timer));
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    messages,
    get requestCount() {
      return requestCount;
    },
    mode: (mode) => (currentMode = mode),
    reject: (number, code, message) => rejections.set(number, { code, message }),
    delayMs: (ms) => (delay = ms),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
