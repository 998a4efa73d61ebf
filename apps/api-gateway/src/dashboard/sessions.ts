import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { constantTimeEqual } from '#libs/contracts';
import { SecretBox } from '#libs/crypto';
import type { SessionStore } from './session-store.js';

export const SESSION_COOKIE = 'app_session';
/** The cookie of a sign-in under way: it ties the authorization's answer to the browser that asked. */
export const SIGN_IN_COOKIE = 'app_signin';
export const SESSION_LIFETIME_SECONDS = 12 * 3600;
const SIGN_IN_LIFETIME_SECONDS = 600;
export const COOKIE_PATH = '/app';
/** An access token this close to its end is refreshed before it is used. */
const REFRESH_MARGIN_MS = 60_000;
/** A cookie value: 32 random bytes, base64url. */
const VALUE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the auth-server's token endpoint gave: the access token, its end, and the refresh token. */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/** A sign-in under way: the state and PKCE verifier of its authorization request, and where to go after. */
export interface PendingSignIn {
  state: string;
  verifier: string;
  returnTo: string;
}

interface StoredSession {
  tokens: Tokens;
  createdAt: number;
}

/** The store's key of a cookie value: its SHA-256 (the store never holds a value that opens anything). */
function storeKey(kind: string, value: string): string {
  return `dashboard:${kind}:${createHash('sha256').update(value).digest('hex')}`;
}

/** Derives a 32-byte key for `purpose` from a cookie value. */
function keyOf(value: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(value, 'base64url'), Buffer.alloc(0), purpose, 32));
}

/** A box under a key derived from the cookie value: what the store holds opens only with the cookie. */
function boxOf(value: string, purpose: string): SecretBox {
  return new SecretBox(keyOf(value, purpose).toString('base64'));
}

const newValue = (): string => randomBytes(32).toString('base64url');

/**
 * The dashboard's sessions. The browser holds only an opaque cookie (256 random bits); the store
 * holds the session's tokens under the cookie's SHA-256, encrypted under a key derived from the
 * cookie, so neither a copy of the store nor the cookie's hash opens a token. Signing out deletes
 * the entry, so a copied cookie stops working too. Forms carry an HMAC of the cookie (CSRF).
 */
export class DashboardSessions {
  constructor(
    private readonly store: SessionStore,
    private readonly secure: boolean,
  ) {}

  /** Records a sign-in under way; the cookie value to set. */
  async beginSignIn(pending: PendingSignIn): Promise<string> {
    const value = newValue();
    await this.store.set(storeKey('signin', value), boxOf(value, 'signin').seal(JSON.stringify(pending)), SIGN_IN_LIFETIME_SECONDS);
    return value;
  }

  /**
   * The sign-in under way of this cookie when `state` is its own, once: taken from the store in one
   * step, so two callbacks at once cannot both exchange the code. A wrong state leaves it in place
   * (a link of another site cannot cancel a sign-in).
   */
  async takeSignIn(value: string | undefined, state: unknown): Promise<PendingSignIn | undefined> {
    if (!value || !VALUE_PATTERN.test(value) || typeof state !== 'string') return undefined;
    const key = storeKey('signin', value);
    const open = (sealed: string | undefined) => (sealed ? (JSON.parse(boxOf(value, 'signin').open(sealed)) as PendingSignIn) : undefined);
    const pending = open(await this.store.get(key));
    if (!pending || !constantTimeEqual(state, pending.state)) return undefined;
    return open(await this.store.take(key));
  }

  /** A new session holding these tokens; the cookie value to set. */
  async create(tokens: Tokens): Promise<string> {
    const value = newValue();
    await this.save(value, { tokens, createdAt: Date.now() });
    return value;
  }

  /** Whether the cookie names a live session. */
  async exists(value: string | undefined): Promise<boolean> {
    return (await this.load(value)) !== undefined;
  }

  /**
   * The session's access token, refreshed first when it is about to end. The refresh runs under
   * the session's lock across replicas: refresh tokens are used once, and a second use would
   * revoke the grant. Undefined when there is no session (or the refresh failed: signed out).
   */
  async accessToken(
    value: string | undefined,
    refresh: (refreshToken: string) => Promise<Tokens | undefined>,
  ): Promise<string | undefined> {
    const session = await this.load(value);
    if (!session || !value) return undefined;
    if (session.tokens.expiresAt - REFRESH_MARGIN_MS > Date.now()) return session.tokens.accessToken;
    return this.store.exclusive(storeKey('session', value), async () => {
      // Another request may have refreshed while this one waited for the lock.
      const current = await this.load(value);
      if (!current) return undefined;
      if (current.tokens.expiresAt - REFRESH_MARGIN_MS > Date.now()) return current.tokens.accessToken;
      const tokens = await refresh(current.tokens.refreshToken);
      if (!tokens) {
        await this.store.delete(storeKey('session', value));
        return undefined;
      }
      // Signed out meanwhile: the refreshed session is not written back.
      if (!(await this.save(value, { ...current, tokens }, true))) return undefined;
      return tokens.accessToken;
    });
  }

  /** Ends the session; its refresh token, for the caller to revoke. */
  async end(value: string | undefined): Promise<string | undefined> {
    const session = await this.load(value);
    if (value) await this.store.delete(storeKey('session', value));
    return session?.tokens.refreshToken;
  }

  csrf(value: string): string {
    return createHmac('sha256', keyOf(value, 'csrf')).update('dashboard-form').digest('base64url');
  }

  csrfValid(value: string | undefined, token: string | undefined): boolean {
    return !!value && VALUE_PATTERN.test(value) && typeof token === 'string' && constantTimeEqual(token, this.csrf(value));
  }

  sessionCookie(value: string): string {
    return this.cookie(SESSION_COOKIE, value, SESSION_LIFETIME_SECONDS);
  }

  signInCookie(value: string): string {
    return this.cookie(SIGN_IN_COOKIE, value, SIGN_IN_LIFETIME_SECONDS);
  }

  clearedCookie(name: string): string {
    return this.cookie(name, '', 0);
  }

  private async load(value: string | undefined): Promise<StoredSession | undefined> {
    if (!value || !VALUE_PATTERN.test(value)) return undefined;
    const sealed = await this.store.get(storeKey('session', value));
    if (!sealed) return undefined;
    try {
      return JSON.parse(boxOf(value, 'session').open(sealed)) as StoredSession;
    } catch {
      return undefined;
    }
  }

  /** Writes the session for what remains of its lifetime; `existing`: only over a session still there. Whether it was written. */
  private async save(value: string, session: StoredSession, existing = false): Promise<boolean> {
    const remaining = SESSION_LIFETIME_SECONDS - (Date.now() - session.createdAt) / 1000;
    if (remaining <= 0) return false;
    const key = storeKey('session', value);
    const sealed = boxOf(value, 'session').seal(JSON.stringify(session));
    if (existing) return this.store.replace(key, sealed, remaining);
    await this.store.set(key, sealed, remaining);
    return true;
  }

  private cookie(name: string, value: string, maxAge: number): string {
    return `${name}=${value}; Max-Age=${maxAge}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax${this.secure ? '; Secure' : ''}`;
  }
}
