import { accountMessage, expiryText } from './account-messages.js';

const LINK = 'https://auth.example.test/account/verify/abc_DEF-123';
const EXPIRES = new Date('2026-05-02T14:00:00Z');

describe('accountMessage', () => {
  it('asks to verify an address in both parts, with the link, its expiry and what to do if it was not asked for', () => {
    const message = accountMessage({ kind: 'account_verification', link: LINK, expiresAt: EXPIRES, platformName: 'Maple Signups' });
    expect(message.subject).toBe('Verify your email address for Maple Signups');
    expect(message.calendar).toBeNull();
    for (const part of [message.text, message.html]) {
      expect(part).toContain(LINK);
      expect(part).toContain('until 2 May 2026 at 14:00 UTC');
      expect(part).toContain('If you did not ask for this, ignore this email');
    }
    expect(message.html).toContain(`<a href="${LINK}">Verify my email address</a>`);
  });

  it('offers a password reset in both parts, saying that it signs out everywhere else', () => {
    const message = accountMessage({ kind: 'password_reset', link: LINK, expiresAt: EXPIRES, platformName: 'Maple Signups' });
    expect(message.subject).toBe('Reset your Maple Signups password');
    for (const part of [message.text, message.html]) {
      expect(part).toContain(LINK);
      expect(part).toContain('The link works once, until 2 May 2026 at 14:00 UTC.');
      expect(part).toContain('Setting a new password signs you out everywhere else.');
      expect(part).toContain('your password stays as it is');
    }
    expect(message.html).toContain(`<a href="${LINK}">Choose a new password</a>`);
  });

  it('escapes every value in the HTML part', () => {
    const message = accountMessage({
      kind: 'password_reset',
      link: 'https://auth.example.test/account/reset-password/x"><script>alert(1)</script>',
      expiresAt: EXPIRES,
      platformName: '<img src=x onerror=alert(1)> & "Co"',
    });
    expect(message.html).not.toMatch(/<script|<img/);
    expect(message.html).toContain('x&#34;&#62;&#60;script&#62;');
    expect(message.html).toContain('&#60;img src=x onerror=alert(1)&#62; &#38; &#34;Co&#34;');
  });

  it('keeps the platform name on one clean line, and falls back when nothing is left of it', () => {
    const message = accountMessage({
      kind: 'account_verification',
      link: LINK,
      expiresAt: EXPIRES,
      platformName: 'Maple\r\nBcc: x@example.com',
    });
    expect(message.subject).toBe('Verify your email address for Maple Bcc: x@example.com');
    expect(message.text).not.toContain('\r');
    const unnamed = accountMessage({ kind: 'account_verification', link: LINK, expiresAt: EXPIRES, platformName: '\u200B\u0000' });
    expect(unnamed.subject).toBe('Verify your email address for Signups');
  });

  it('tells an expiry in UTC whatever the machine’s zone', () => {
    expect(expiryText(new Date('2026-12-31T23:30:00Z'))).toBe('31 December 2026 at 23:30 UTC');
  });
});
