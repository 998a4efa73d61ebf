import type { EmailCalendarView } from '#libs/contracts';

/** One message as it goes to the SMTP server. */
export interface OutgoingEmail {
  /** Our Message-ID, the same on every attempt: `<id@domain>`. */
  messageId: string;
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  calendar: EmailCalendarView | null;
  /** The one-click unsubscribe link (RFC 8058), for reminders. */
  unsubscribeUrl: string | null;
}

/**
 * Why a message did not go out:
 * - `temporary`: a 4xx answer, or no answer at all (unreachable, timed out): try again later;
 * - `permanent`: a 5xx answer to the message or to our sender: give up;
 * - `bounced`: a 5xx answer to the recipient (RCPT TO): give up and suppress the address.
 */
export type EmailFailureKind = 'temporary' | 'permanent' | 'bounced';

export class EmailFailure extends Error {
  constructor(
    readonly kind: EmailFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'EmailFailure';
  }
}

/** The port every way of sending implements: resolves once the server accepted the message, or throws EmailFailure. */
export interface EmailTransport {
  send(message: OutgoingEmail): Promise<void>;
  close(): void;
}

export const EMAIL_TRANSPORT = Symbol('EMAIL_TRANSPORT');
