import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '#libs/contracts';

/** The anti-CSRF token of the interaction pages' forms: an HMAC of the interaction uid under a server-side key. */
export class InteractionCsrf {
  constructor(private readonly key: string) {}

  /** The anti-CSRF token of one interaction. */
  token(uid: string): string {
    return createHmac('sha256', this.key).update(`interaction:${uid}`).digest('base64url');
  }

  valid(uid: string, token: unknown): boolean {
    return typeof token === 'string' && constantTimeEqual(token, this.token(uid));
  }
}
