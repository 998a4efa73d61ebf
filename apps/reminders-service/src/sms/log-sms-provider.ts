import { randomUUID } from 'node:crypto';
import type { Logger } from '#libs/observability';
import type { SmsMessage, SmsProvider } from './sms-provider.js';

const MASK = '•';

/**
 * A phone number fit for a log line: the `+`, the first 2 and the last 2 digits, the rest masked
 * (`+15551234567` → `+15•••••••67`). Numbers of 6 digits or fewer are masked whole.
 */
export function maskPhone(e164: string): string {
  const plus = e164.startsWith('+') ? '+' : '';
  const digits = e164.slice(plus.length);
  if (digits.length <= 6) return plus + MASK.repeat(digits.length);
  return `${plus}${digits.slice(0, 2)}${MASK.repeat(digits.length - 4)}${digits.slice(-2)}`;
}

/** SMS_PROVIDER=log, the default: records each text in the log (recipient masked) and sends nothing. */
export class LogSmsProvider implements SmsProvider {
  constructor(private readonly logger: Logger) {}

  async send({ to, body }: SmsMessage): Promise<{ id: string }> {
    const id = `log_${randomUUID()}`;
    this.logger.info({ smsId: id, to: maskPhone(to), body }, 'SMS logged, not sent (SMS_PROVIDER=log)');
    return { id };
  }
}
