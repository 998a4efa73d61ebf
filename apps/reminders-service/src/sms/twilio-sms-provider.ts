import { maskPhone } from './log-sms-provider.js';
import { SmsFailure, type SmsMessage, type SmsProvider } from './sms-provider.js';

export interface TwilioOptions {
  /** `https://api.twilio.com`, or a fake's base URL in tests. */
  apiBase: string;
  accountSid: string;
  authToken: string;
  /** A sender number in E.164 (`+…`), or a Messaging Service sid (`MG…`). */
  from: string;
  timeoutMs: number;
}

/** What Twilio answers: a message resource (`sid`) or an error (`code`, `message`). */
interface TwilioAnswer {
  sid?: unknown;
  code?: unknown;
  message?: unknown;
}

/** Statuses that say nothing about the recipient: our account or Twilio itself is the problem. */
const UNAVAILABLE_STATUSES = new Set([401, 403, 404, 429]);

/**
 * 4xx codes about our side, not the recipient: 21212 invalid From, 21606 From cannot send to
 * this destination kind, 21608 unverified trial account, 21659 From is not a Twilio number.
 */
const SENDER_CODES = new Set([21212, 21606, 21608, 21659]);

/** Twilio's "attempt to send to unsubscribed recipient": the recipient replied STOP. */
const OPTED_OUT_CODE = 21610;

/** AbortSignal.timeout fired (a DOMException, not always an instance of this realm's Error). */
function isTimeout(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'TimeoutError';
}

/** The system error code behind a failed fetch (ECONNREFUSED, ENOTFOUND…), when there is one. */
function causeCode(err: unknown): string | undefined {
  const code = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The answer's JSON, or null when the body is not JSON or cannot be read. */
async function readJson(res: Response): Promise<TwilioAnswer | null> {
  try {
    return JSON.parse(await res.text()) as TwilioAnswer | null;
  } catch {
    return null;
  }
}

/** Sends texts with Twilio's Messages API (a form-encoded POST with basic auth), mapping each failure to an SmsFailure kind. */
export class TwilioSmsProvider implements SmsProvider {
  constructor(private readonly options: TwilioOptions) {}

  async send({ to, body }: SmsMessage): Promise<{ id: string }> {
    const { apiBase, accountSid, authToken, from, timeoutMs } = this.options;
    const form = new URLSearchParams({ To: to, Body: body });
    form.set(from.startsWith('MG') ? 'MessagingServiceSid' : 'From', from);
    let res: Response;
    try {
      res = await fetch(`${apiBase}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if (isTimeout(err)) throw new SmsFailure('timeout', `Twilio did not answer within ${timeoutMs} ms.`);
      const code = causeCode(err);
      throw new SmsFailure('unavailable', `Twilio could not be reached${code ? ` (${code})` : ''}.`);
    }
    const json = await readJson(res);
    // Accepted is accepted: whatever the body, the text is on its way and must not be sent again.
    if (res.ok) return { id: typeof json?.sid === 'string' ? json.sid : '' };
    const detail = this.describe(res.status, json, to);
    const code = json?.code;
    if (res.status >= 500 || UNAVAILABLE_STATUSES.has(res.status) || typeof code !== 'number' || SENDER_CODES.has(code)) {
      throw new SmsFailure('unavailable', detail);
    }
    throw new SmsFailure(code === OPTED_OUT_CODE ? 'opted_out' : 'rejected', detail);
  }

  /** "Twilio answered 400 (code 21211: …)", with the recipient masked (Twilio's messages quote it). */
  private describe(status: number, json: TwilioAnswer | null, to: string): string {
    const code = typeof json?.code === 'number' ? `code ${json.code}` : undefined;
    const message = typeof json?.message === 'string' ? json.message.replaceAll(to, maskPhone(to)) : undefined;
    const details = [code, message].filter(Boolean).join(': ');
    return `Twilio answered ${status}${details ? ` (${details})` : ''}.`;
  }
}
