import { createHmac, timingSafeEqual } from 'node:crypto';

/** The anti-CSRF token of the interaction pages' forms: an HMAC of the interaction uid under a server-side key. */
export class InteractionCsrf {
  constructor(private readonly key: string) {}

  /** The anti-CSRF token of one interaction. */
  token(uid: string): string {
    return createHmac('sha256', this.key).update(`interaction:${uid}`).digest('base64url');
  }

  valid(uid: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.token(uid));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
