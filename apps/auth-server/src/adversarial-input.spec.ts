import type { DataSource } from 'typeorm';
import { ADVERSARIAL_BUDGET_MS, cpuMillisOf, MAX_HEADER_BYTES, ONE_MIB, repeatedTo } from '#libs/testing';
import { parseCookies } from '#libs/web';
import { AccountSessions } from './account/account-session.js';
import { readSignup, safeReturnPath } from './account/signup-form.js';
import { checkAdminAuthorization } from './admin/admin-token.js';

/** The form nonce needs no database. */
const sessions = new AccountSessions('a-cookie-key', false, {} as DataSource);
const PASSWORD = 'a long enough password';

/** A form field can be a whole body: a mebibyte, shaped to make a backtracking pattern try every split. */
const DOTS_AFTER_AT = repeatedTo(ONE_MIB, '.', 'a@', '@');
const LABELS_THEN_SPACE = repeatedTo(ONE_MIB, 'a.', 'a@', ' a');
const HEADER = repeatedTo(MAX_HEADER_BYTES, 'a-', '', ' ');

const refused = (call: () => unknown) => () => expect(call).toThrow();

/** Every pattern of the auth-server that reads what a caller sent, each fed the largest input that reaches it. */
const ROWS: [string, () => unknown][] = [
  [
    'a signup email of a mebibyte of dots after an @',
    () => expect(readSignup(DOTS_AFTER_AT, PASSWORD, 'Choir')).toMatchObject({ ok: false }),
  ],
  [
    'a signup email of a mebibyte of dotted labels',
    () => expect(readSignup(LABELS_THEN_SPACE, PASSWORD, 'Choir')).toMatchObject({ ok: false }),
  ],
  [
    'a signup password and organization name of a mebibyte each',
    () => readSignup('ann@example.test', LABELS_THEN_SPACE, LABELS_THEN_SPACE),
  ],
  ['a signup return path of a mebibyte', () => safeReturnPath(repeatedTo(ONE_MIB, 'a', '/oauth/authorize/', '/interaction/'))],
  ['an admin Authorization header of 16 KiB', refused(() => checkAdminAuthorization(`Bearer ${HEADER}`, 'admin-token'))],
  ['a form cookie of 16 KiB', () => sessions.formNonce(parseCookies(`account_form=${HEADER}`).get('account_form'))],
];

describe('patterns over what callers send', () => {
  it.each(ROWS)('%s takes linear time', (_label, call) => {
    expect(cpuMillisOf(call)).toBeLessThan(ADVERSARIAL_BUDGET_MS);
  });
});
