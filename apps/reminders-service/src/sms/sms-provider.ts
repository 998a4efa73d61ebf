/** One text to send: `to` in E.164, `body` as the recipient reads it. */
export interface SmsMessage {
  to: string;
  body: string;
}

/**
 * Why a text did not go out:
 * - `timeout`: no answer within SMS_TIMEOUT_MS (it may or may not have been sent);
 * - `unavailable`: the provider could not be reached, failed (5xx), throttled us (429) or
 *   refused our credentials: nothing about this recipient;
 * - `rejected`: the provider refused this message (an invalid or unreachable number);
 * - `opted_out`: the provider knows the recipient replied STOP (Twilio error 21610).
 */
export type SmsFailureKind = 'timeout' | 'unavailable' | 'rejected' | 'opted_out';

export class SmsFailure extends Error {
  constructor(
    readonly kind: SmsFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'SmsFailure';
  }
}

/** The port every SMS provider implements: resolves with the provider's message id, or throws SmsFailure. */
export interface SmsProvider {
  send(message: SmsMessage): Promise<{ id: string }>;
}

export const SMS_PROVIDER = Symbol('SMS_PROVIDER');
