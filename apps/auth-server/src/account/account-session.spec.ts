import type { DataSource } from 'typeorm';
import { AccountSessions } from './account-session.js';

/** The cookies and csrf tokens need no database (sessions themselves are tested in account.integration-spec.ts). */
const noDatabase = {} as DataSource;
const sessions = new AccountSessions('a-cookie-key', false, noDatabase);

describe('account session cookie', () => {
  it('sets an HttpOnly, SameSite=Lax cookie on /account, Secure only for an https AUTH_URL', () => {
    expect(sessions.sessionCookie('v')).toBe('account_session=v; Max-Age=43200; Path=/account; HttpOnly; SameSite=Lax');
    expect(new AccountSessions('k', true, noDatabase).sessionCookie('v')).toBe(
      'account_session=v; Max-Age=43200; Path=/account; HttpOnly; SameSite=Lax; Secure',
    );
    expect(sessions.clearedSessionCookie()).toBe('account_session=; Max-Age=0; Path=/account; HttpOnly; SameSite=Lax');
  });
});

describe('account csrf tokens', () => {
  it('ties a signed-in form to its session', () => {
    const first = 'A'.repeat(43);
    const second = 'B'.repeat(43);
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
