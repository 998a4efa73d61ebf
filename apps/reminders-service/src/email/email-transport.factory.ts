import { ConfigError } from '#libs/config';
import type { RemindersConfig } from '../reminders.config.js';
import { EmailFailure, type EmailTransport } from './email-transport.js';
import { SmtpTransport } from './smtp-transport.js';

/** Without SMTP_URL nothing is queued, so nothing reaches this. */
const NO_SMTP: EmailTransport = {
  send: () => Promise.reject(new EmailFailure('permanent', 'no SMTP_URL')),
  close: () => undefined,
};

const ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+$/;

/**
 * The SMTP transport SMTP_URL names (smtp:// or smtps://), which needs MAIL_FROM; DKIM with
 * DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY together. A ConfigError at boot otherwise.
 */
export function emailTransportFor(config: RemindersConfig): EmailTransport {
  const dkim = { DKIM_DOMAIN: config.dkimDomain, DKIM_SELECTOR: config.dkimSelector, DKIM_PRIVATE_KEY: config.dkimPrivateKey };
  const set = Object.entries(dkim).filter(([, value]) => value !== undefined);
  const problems: string[] = [];
  if (set.length > 0 && set.length < 3) problems.push(`DKIM signing needs ${Object.keys(dkim).join(', ')} together`);
  if (config.mailFrom !== undefined && !ADDRESS.test(config.mailFrom))
    problems.push(`MAIL_FROM must be an email address (got "${config.mailFrom}")`);
  if (config.smtpUrl !== undefined) {
    const protocol = new URL(config.smtpUrl).protocol;
    if (protocol !== 'smtp:' && protocol !== 'smtps:') problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
    if (config.mailFrom === undefined) problems.push('MAIL_FROM is required with SMTP_URL');
  }
  if (problems.length > 0) throw new ConfigError(problems);
  if (config.smtpUrl === undefined) return NO_SMTP;
  return new SmtpTransport({
    url: config.smtpUrl,
    timeoutMs: config.smtpTimeoutMs,
    ...(set.length === 3 && {
      dkim: { domainName: config.dkimDomain!, keySelector: config.dkimSelector!, privateKey: config.dkimPrivateKey! },
    }),
  });
}
