import { AccountSessions, parseCookies, SESSION_LIFETIME_SECONDS } from './account-session.js';

const sessions = new AccountSessions('a-cookie-key', false);
const now = Date.UTC(2030, 0, 1);

describe('account session', () => {
  it('gives back the user of a session it issued until it expires after 12 hours', () => {
    const value = sessions.issue('usr_abc', now);
    expect(sessions.userIdOf(value, now)).toBe('usr_abc');
    expect(sessions.userIdOf(value, now + SESSION_LIFETIME_SECONDS * 1000 - 1000)).toBe('usr_abc');
    expect(sessions.userIdOf(value, now + SESSION_LIFETIME_SECONDS * 1000)).toBeUndefined();
  });

  it('refuses a session with another user, expiry or signature, or signed under another key', () => {
    const value = sessions.issue('usr_abc', now);
    const [, expiry, mac] = value.split('.');
    expect(sessions.userIdOf(`usr_other.${expiry}.${mac}`, now)).toBeUndefined();
    expect(sessions.userIdOf(`usr_abc.${Number(expiry) + 3600}.${mac}`, now)).toBeUndefined();
    expect(sessions.userIdOf(`usr_abc.${expiry}.x${mac?.slice(1)}`, now)).toBeUndefined();
    expect(new AccountSessions('another-key', false).userIdOf(value, now)).toBeUndefined();
    expect(sessions.userIdOf('garbage', now)).toBeUndefined();
    expect(sessions.userIdOf(undefined, now)).toBeUndefined();
  });

  it('sets an HttpOnly, SameSite=Lax cookie on /account, Secure only for an https AUTH_URL', () => {
    expect(sessions.sessionCookie('v')).toBe('account_session=v; Max-Age=43200; Path=/account; HttpOnly; SameSite=Lax');
    expect(new AccountSessions('k', true).sessionCookie('v')).toBe('account_session=v; Max-Age=43200; Path=/account; HttpOnly; SameSite=Lax; Secure');
    expect(sessions.clearedSessionCookie()).toBe('account_session=; Max-Age=0; Path=/account; HttpOnly; SameSite=Lax');
  });
});

describe('account csrf tokens', () => {
  it('ties a signed-in form to its session', () => {
    const first = sessions.issue('usr_abc', now);
    const second = sessions.issue('usr_abc', now + 1000);
    expect(sessions.csrfValidForSession(first, sessions.csrfForSession(first))).toBe(true);
    expect(sessions.csrfValidForSession(second, sessions.csrfForSession(first))).toBe(false);
    expect(sessions.csrfValidForSession(first, '')).toBe(false);
  });

  it('ties a login or signup form to the nonce in its cookie, keeping a well-formed one', () => {
    const { nonce, fresh } = sessions.formNonce(undefined);
    expect(fresh).toBe(true);
    expect(sessions.formNonce(nonce)).toEqual({ nonce, fresh: false });
    expect(sessions.formNonce('short').fresh).toBe(true);
    expect(sessions.csrfValidForForm(nonce, sessions.csrfForForm(nonce))).toBe(true);
    expect(sessions.csrfValidForForm(undefined, sessions.csrfForForm(nonce))).toBe(false);
    expect(sessions.csrfValidForForm(sessions.formNonce(undefined).nonce, sessions.csrfForForm(nonce))).toBe(false);
  });
});

describe('cookie header', () => {
  it('reads each cookie by name, the first of a repeated name', () => {
    const cookies = parseCookies('a=1; account_session=usr_x.1.y; a=2; broken; =x');
    expect(cookies.get('a')).toBe('1');
    expect(cookies.get('account_session')).toBe('usr_x.1.y');
    expect(cookies.size).toBe(2);
  });
});
