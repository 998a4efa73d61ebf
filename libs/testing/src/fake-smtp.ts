import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/** A message the fake accepted, parsed (mailparser), with its envelope. */
export interface FakeSmtpMessage {
  from: string;
  to: string[];
  parsed: ParsedMail;
  raw: Buffer;
}

export interface FakeSmtp {
  /** `smtp://127.0.0.1:PORT`, an SMTP_URL. */
  url: string;
  messages: FakeSmtpMessage[];
  /** Recipients whose RCPT TO is answered `code` (451: try later, 550: no such mailbox), `times` times (every time by default). */
  reject(address: string, code: number, times?: number): void;
  /** Every connection is refused with 421 until `up(true)`. */
  up(up: boolean): void;
  close(): Promise<void>;
}

interface Rejection {
  code: number;
  left: number;
}

function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * An SMTP server on 127.0.0.1 (the npm package smtp-server), for tests of what the platform
 * mails: it accepts any sender, parses every message it receives, and can refuse recipients with
 * a temporary (4xx) or permanent (5xx) answer, or every connection.
 */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: FakeSmtpMessage[] = [];
  const rejections = new Map<string, Rejection>();
  let accepting = true;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      callback(accepting ? undefined : smtpError(421, 'Service not available'));
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const rejection = rejections.get(address.address.toLowerCase());
      if (rejection && rejection.left > 0) {
        rejection.left -= 1;
        callback(smtpError(rejection.code, rejection.code >= 500 ? 'No such mailbox' : 'Try again later'));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            messages.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              parsed,
              raw,
            });
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    reject(address, code, times = Number.POSITIVE_INFINITY) {
      rejections.set(address.toLowerCase(), { code, left: times });
    },
    up(up) {
      accepting = up;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
