import { readSignup, safeReturnPath, TIME_ZONE_FORM_ERROR } from './signup-form.js';

describe('signup form', () => {
  it('accepts an email, a password of 10 characters and an organization name, trimmed', () => {
    expect(readSignup(' ann@example.test ', '0123456789', '  Choir ')).toEqual({
      ok: true,
      command: { email: 'ann@example.test', password: '0123456789', organizationName: 'Choir', timeZone: 'UTC' },
    });
  });

  it("takes the organization's time zone, as the name the runtime lists", () => {
    expect(readSignup('ann@example.test', '0123456789', 'Choir', 'Europe/Madrid')).toMatchObject({
      ok: true,
      command: { timeZone: 'Europe/Madrid' },
    });
    expect(readSignup('ann@example.test', '0123456789', 'Choir', 'US/Hawaii')).toMatchObject({
      ok: true,
      command: { timeZone: 'Pacific/Honolulu' },
    });
  });

  it.each(['+05:00', 'GMT+1', 'Etc/GMT+1', 'EST', ' UTC', 'Europe/Berl\u0131n', 'x'.repeat(1000)])(
    'refuses the time zone %j',
    (timeZone) => {
      expect(readSignup('ann@example.test', '0123456789', 'Choir', timeZone)).toEqual({ ok: false, error: TIME_ZONE_FORM_ERROR });
    },
  );

  it.each([
    ['an email without a domain', 'ann@', '0123456789', 'Choir', 'Enter a valid email address.'],
    ['an email with spaces inside', 'ann smith@example.test', '0123456789', 'Choir', 'Enter a valid email address.'],
    [
      'an email with an empty domain label, as the API refuses it',
      'ann@example..test',
      '0123456789',
      'Choir',
      'Enter a valid email address.',
    ],
    [
      'an email with a one-letter top-level domain, as the API refuses it',
      'ann@example.c',
      '0123456789',
      'Choir',
      'Enter a valid email address.',
    ],
    ['an email of 321 characters', `${'a'.repeat(64)}@${'b'.repeat(252)}.test`, '0123456789', 'Choir', 'Enter a valid email address.'],
    ['a 9-character password', 'ann@example.test', '012345678', 'Choir', 'Choose a password of at least 10 characters.'],
    ['a 201-character password', 'ann@example.test', 'x'.repeat(201), 'Choir', 'Choose a password of at most 200 characters.'],
    ['a blank organization name', 'ann@example.test', '0123456789', '  ', 'Enter a name for your organization.'],
    [
      'a 201-character organization name',
      'ann@example.test',
      '0123456789',
      'o'.repeat(201),
      'Keep the organization name to 200 characters.',
    ],
  ])('refuses %s', (_label, email, password, organization, error) => {
    expect(readSignup(email, password, organization)).toEqual({ ok: false, error });
  });
});

describe('signup return path', () => {
  it.each(['/oauth/authorize/AbC-12_x/interaction', '/oauth/device/AbC-12_x/interaction'])(
    'keeps the OAuth interaction path %s',
    (value) => {
      expect(safeReturnPath(value)).toBe(value);
    },
  );

  it.each([
    '',
    'https://evil.example/oauth/authorize/abc/interaction',
    '//evil.example/oauth/authorize/abc/interaction',
    '/\\evil.example/oauth/authorize/abc/interaction',
    '/oauth/authorize/abc/interaction/login',
    '/oauth/authorize/abc/interaction/../../admin',
    '/oauth/authorize/../interaction',
    '/oauth/authorize/abc/interaction?next=https://evil.example',
    '/oauth/elsewhere/abc/interaction',
    '/oauth/interaction/abc',
    '/account',
    `/oauth/authorize/${'a'.repeat(200)}/interaction`,
  ])('drops %s', (value) => {
    expect(safeReturnPath(value)).toBeUndefined();
  });
});
