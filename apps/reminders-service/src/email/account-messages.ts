import type { AccountEmailKind } from '#libs/contracts';
import type { EmailContent } from './emails.js';
import { headerText } from './header-text.js';

/** The longest platform name a message names (the sender's name is cut at the same length). */
const PLATFORM_NAME_MAX = 80;

/** What an account message is about: its link, when the link expires, and the platform sending it. */
export interface AccountMessage {
  kind: AccountEmailKind;
  link: string;
  expiresAt: Date;
  platformName: string;
}

interface Wording {
  subject: string;
  why: string;
  action: string;
  button: string;
  /** What follows from ignoring the message. */
  ignored: string;
  after?: string;
}

function wordingOf(kind: AccountEmailKind, platform: string): Wording {
  switch (kind) {
    case 'account_verification':
      return {
        subject: `Verify your email address for ${platform}`,
        why: `Someone, hopefully you, created a ${platform} account with this email address.`,
        action: 'To verify the address, open this link and confirm:',
        button: 'Verify my email address',
        ignored: 'the account stays unverified, and nothing else happens',
      };
    case 'password_reset':
      return {
        subject: `Reset your ${platform} password`,
        why: `Someone, hopefully you, asked to reset the password of the ${platform} account with this email address.`,
        action: 'To choose a new password, open this link:',
        button: 'Choose a new password',
        ignored: 'your password stays as it is',
        after: 'Setting a new password signs you out everywhere else.',
      };
    default: {
      const unreachable: never = kind;
      throw new Error(`Unknown account message ${String(unreachable)}`);
    }
  }
}

/** Escapes text for HTML element content and double-quoted attribute values. */
function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** "2 May 2026 at 14:00 UTC": accounts have no time zone, so expiries are told in UTC. */
export function expiryText(expiresAt: Date): string {
  const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(expiresAt);
  return `${when} UTC`;
}

/**
 * An account message (email verification or password reset) in both parts: what it is about, the
 * link, until when it works, and what happens if it was not asked for. Every value goes into the
 * HTML escaped, and the platform's name onto one clean line.
 */
export function accountMessage(message: AccountMessage): EmailContent {
  const platform = headerText(message.platformName, PLATFORM_NAME_MAX) || 'Signups';
  const words = wordingOf(message.kind, platform);
  const expiry = `The link works once, until ${expiryText(message.expiresAt)}.`;
  const ignore = `If you did not ask for this, ignore this email: ${words.ignored}.`;
  const text = [words.why, '', words.action, '', message.link, '', expiry, ...(words.after ? [words.after] : []), '', ignore, ''].join(
    '\n',
  );
  const link = escapeHtml(message.link);
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(words.subject)}</title></head>
<body>
<p>${escapeHtml(words.why)}</p>
<p>${escapeHtml(words.action)}</p>
<p><a href="${link}">${escapeHtml(words.button)}</a></p>
<p>Or copy this address into your browser: ${link}</p>
<p>${escapeHtml(expiry)}${words.after ? ` ${escapeHtml(words.after)}` : ''}</p>
<p>${escapeHtml(ignore)}</p>
</body>
</html>
`;
  return { subject: words.subject, text, html, calendar: null };
}
