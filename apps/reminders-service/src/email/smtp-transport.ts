import { createTransport, type Transporter } from 'nodemailer';
import type { Options as SmtpPoolOptions } from 'nodemailer/lib/smtp-pool/index.js';
import { EmailFailure, type EmailFailureKind, type EmailTransport, type OutgoingEmail } from './email-transport.js';

/** DKIM signing: the domain, the selector of its DNS record, and the PEM private key. */
export interface DkimSettings {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export interface SmtpSettings {
  url: string;
  timeoutMs: number;
  dkim?: DkimSettings;
}

/** What nodemailer's errors carry about the SMTP exchange. */
interface SmtpError {
  responseCode?: number;
  command?: string;
  response?: string;
  message?: string;
}

/** An enhanced status code (RFC 3463) that says the address is wrong: 5.1.x (no such mailbox, bad domain…). */
const BAD_ADDRESS = /\b5\.1\.\d{1,3}\b/;
/** Any enhanced status code. */
const ENHANCED = /\b[245]\.\d{1,3}\.\d{1,3}\b/;
/** Without an enhanced code: the basic codes of an unknown or refused mailbox. */
const MAILBOX_CODES = new Set([550, 551, 553]);

/**
 * A 4xx or no answer is temporary. A 5xx is permanent; it is a hard bounce (the address is
 * suppressed) only when it refuses the recipient (RCPT TO) for its address: an enhanced 5.1.x
 * code, or 550/551/553 without an enhanced code. A policy refusal (5.7.x: spam, relaying) is
 * permanent for this message and suppresses nobody.
 */
export function failureKindOf(err: SmtpError): EmailFailureKind {
  const code = err.responseCode;
  if (code === undefined || code < 500 || code >= 600) return 'temporary';
  if (err.command !== 'RCPT TO') return 'permanent';
  const response = err.response ?? '';
  if (ENHANCED.test(response)) return BAD_ADDRESS.test(response) ? 'bounced' : 'permanent';
  return MAILBOX_CODES.has(code) ? 'bounced' : 'permanent';
}

/**
 * Email over SMTP with nodemailer: one pooled transport for the app, STARTTLS when the server
 * offers it (smtps:// for TLS from the start), DKIM signing when configured.
 */
export class SmtpTransport implements EmailTransport {
  private readonly transporter: Transporter;

  constructor(settings: SmtpSettings) {
    const options: SmtpPoolOptions = {
      url: settings.url,
      pool: true,
      maxConnections: 4,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
      ...(settings.dkim && { dkim: settings.dkim }),
    };
    this.transporter = createTransport(options);
  }

  async send(message: OutgoingEmail): Promise<void> {
    try {
      await this.transporter.sendMail({
        messageId: message.messageId,
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        ...(message.calendar && {
          icalEvent: { method: message.calendar.method, filename: 'invite.ics', content: message.calendar.ics },
        }),
        ...(message.unsubscribeUrl && {
          headers: { 'List-Unsubscribe': `<${message.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        }),
      });
    } catch (err) {
      const smtpError = err as SmtpError;
      throw new EmailFailure(failureKindOf(smtpError), smtpError.message ?? String(err));
    }
  }

  close(): void {
    this.transporter.close();
  }
}
