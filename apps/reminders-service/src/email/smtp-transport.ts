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
  message?: string;
}

/** A 5xx to RCPT TO is a hard bounce; any other 5xx a permanent failure; a 4xx or no answer, temporary. */
export function failureKindOf(err: SmtpError): EmailFailureKind {
  const code = err.responseCode;
  if (code === undefined || code < 500 || code >= 600) return 'temporary';
  return err.command === 'RCPT TO' ? 'bounced' : 'permanent';
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
