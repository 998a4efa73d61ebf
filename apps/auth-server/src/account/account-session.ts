import { createHmac, randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { constantTimeEqual, sha256Hex } from '#libs/contracts';
import { affectedBy, rowsOf } from '#libs/persistence';

export const SESSION_COOKIE = 'account_session';
/** The double-submit cookie of the forms shown before sign-in (login, signup). */
export const FORM_COOKIE = 'account_form';
export const SESSION_LIFETIME_SECONDS = 12 * 3600;
const COOKIE_PATH = '/account';
/** A session value or form nonce: 32 random bytes, base64url. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The account pages' sessions and anti-CSRF tokens.
 * - Session cookie: 256 random bits, kept server-side as their SHA-256 in auth.account_sessions
 *   for 12 h, so signing out ends the session everywhere the cookie was copied; HttpOnly,
 *   SameSite=Lax, Path=/account, Secure when AUTH_URL is https.
 * - Signed-in forms carry an HMAC of the session cookie value, under the provider's persisted
 *   cookie key, compared in constant time.
 * - Login and signup forms (no session yet) carry an HMAC of a random nonce that is also in
 *   the `account_form` cookie (double submit).
 */
export class AccountSessions {
  constructor(
    private readonly key: string,
    private readonly secure: boolean,
    private readonly dataSource: DataSource,
  ) {}

  private mac(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}:${value}`).digest('base64url');
  }

  /** A new session for the user: the cookie's value. */
  async issue(userId: string): Promise<string> {
    const value = randomBytes(32).toString('base64url');
    await affectedBy(
      this.dataSource,
      `INSERT INTO "auth"."account_sessions" ("id", "user_id", "expires_at") VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [sha256Hex(value), userId, SESSION_LIFETIME_SECONDS],
    );
    return value;
  }

  /** The user of a session that has neither expired nor ended. */
  async userIdOf(value: string | undefined): Promise<string | undefined> {
    if (!value || !TOKEN_PATTERN.test(value)) return undefined;
    const rows = await rowsOf<{ user_id: string }>(
      this.dataSource,
      `SELECT "user_id" FROM "auth"."account_sessions" WHERE "id" = $1 AND "expires_at" > now()`,
      [sha256Hex(value)],
    );
    return rows[0]?.user_id;
  }

  /** Ends a session: its cookie is refused from now on, wherever it was copied. */
  async end(value: string): Promise<void> {
    await affectedBy(this.dataSource, `DELETE FROM "auth"."account_sessions" WHERE "id" = $1`, [sha256Hex(value)]);
  }

  /** Ends every session of the user, in `db`'s transaction (a password reset). */
  async endAllOf(db: EntityManager, userId: string): Promise<void> {
    await affectedBy(db, `DELETE FROM "auth"."account_sessions" WHERE "user_id" = $1`, [userId]);
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
    return constantTimeEqual(token, this.csrfForSession(session));
  }

  /** The request's form nonce when it has a well-formed one, else a new one (to be set as a cookie). */
  formNonce(existing: string | undefined): { nonce: string; fresh: boolean } {
    if (existing && TOKEN_PATTERN.test(existing)) return { nonce: existing, fresh: false };
    return { nonce: randomBytes(32).toString('base64url'), fresh: true };
  }

  formCookie(nonce: string): string {
    return this.cookie(FORM_COOKIE, nonce, SESSION_LIFETIME_SECONDS);
  }

  csrfForForm(nonce: string): string {
    return this.mac('account-form', nonce);
  }

  csrfValidForForm(nonce: string | undefined, token: string): boolean {
    return nonce !== undefined && TOKEN_PATTERN.test(nonce) && constantTimeEqual(token, this.csrfForForm(nonce));
  }

  private cookie(name: string, value: string, maxAge: number): string {
    return `${name}=${value}; Max-Age=${maxAge}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`;
  }
}
