import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'account_session';
/** The double-submit cookie of the forms shown before sign-in (login, signup). */
export const FORM_COOKIE = 'account_form';
export const SESSION_LIFETIME_SECONDS = 12 * 3600;
const COOKIE_PATH = '/account';
const NONCE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The cookies of a request header, by name (the first of each name). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const pair = part.trim();
    const eq = pair.indexOf('=');
    if (eq < 1) continue;
    const name = pair.slice(0, eq);
    if (!cookies.has(name)) cookies.set(name, pair.slice(eq + 1));
  }
  return cookies;
}

/**
 * The account pages' session and anti-CSRF tokens, all HMAC-SHA256 under the provider's
 * persisted cookie key and compared in constant time.
 * - Session cookie: `<userId>.<expiry, epoch seconds>.<mac>`, 12 h, HttpOnly, SameSite=Lax,
 *   Path=/account, Secure when AUTH_URL is https.
 * - Signed-in forms carry an HMAC of the session cookie value.
 * - Login and signup forms (no session yet) carry an HMAC of a random nonce that is also in
 *   the `account_form` cookie (double submit).
 */
export class AccountSessions {
  constructor(
    private readonly key: string,
    private readonly secure: boolean,
  ) {}

  private mac(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${value}`).digest('base64url');
  }

  /** A new session value for the user. */
  issue(userId: string, now = Date.now()): string {
    const body = `${userId}.${Math.floor(now / 1000) + SESSION_LIFETIME_SECONDS}`;
    return `${body}.${this.mac('account-session', body)}`;
  }

  /** The user id of a valid, unexpired session value. */
  userIdOf(value: string | undefined, now = Date.now()): string | undefined {
    if (!value) return undefined;
    const dot = value.lastIndexOf('.');
    const body = value.slice(0, dot);
    if (dot < 0 || !sameText(value.slice(dot + 1), this.mac('account-session', body))) return undefined;
    const split = body.lastIndexOf('.');
    const expiry = Number(body.slice(split + 1));
    if (split < 1 || !Number.isInteger(expiry) || expiry * 1000 <= now) return undefined;
    return body.slice(0, split);
  }

  sessionCookie(value: string): string {
    return this.cookie(SESSION_COOKIE, value, SESSION_LIFETIME_SECONDS);
  }

  clearedSessionCookie(): string {
    return this.cookie(SESSION_COOKIE, '', 0);
  }

  csrfForSession(session: string): string {
    return this.mac('account-csrf', session);
  }

  csrfValidForSession(session: string, token: string): boolean {
    return sameText(token, this.csrfForSession(session));
  }

  /** The request's form nonce when it has a well-formed one, else a new one (to be set as a cookie). */
  formNonce(existing: string | undefined): { nonce: string; fresh: boolean } {
    if (existing && NONCE_PATTERN.test(existing)) return { nonce: existing, fresh: false };
    return { nonce: randomBytes(32).toString('base64url'), fresh: true };
  }

  formCookie(nonce: string): string {
    return this.cookie(FORM_COOKIE, nonce, SESSION_LIFETIME_SECONDS);
  }

  csrfForForm(nonce: string): string {
    return this.mac('account-form', nonce);
  }

  csrfValidForForm(nonce: string | undefined, token: string): boolean {
    return nonce !== undefined && NONCE_PATTERN.test(nonce) && sameText(token, this.csrfForForm(nonce));
  }

  private cookie(name: string, value: string, maxAge: number): string {
    return `${name}=${value}; Max-Age=${maxAge}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`;
  }
}
