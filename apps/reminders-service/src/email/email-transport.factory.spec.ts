import { ConfigError, loadConfig } from '#libs/config';
import { remindersSpec } from '../reminders.config.js';
import { emailTransportFor } from './email-transport.factory.js';
import { failureKindOf } from './smtp-transport.js';

const KEY = Buffer.alloc(32, 1).toString('base64');
const configOf = (env: Record<string, string>) => loadConfig(remindersSpec, { EMAIL_SECRET_KEY: KEY, ...env });

describe('emailTransportFor', () => {
  it('needs no SMTP server: without SMTP_URL every email is stored', () => {
    expect(() => emailTransportFor(configOf({}))).not.toThrow();
  });

  it.each([
    [{ SMTP_URL: 'smtp://127.0.0.1:2525' }, 'MAIL_FROM is required with SMTP_URL'],
    [{ SMTP_URL: 'https://mail.example.com', MAIL_FROM: 'a@b.example' }, 'SMTP_URL must be an smtp:// or smtps:// URL'],
    [{ MAIL_FROM: 'not an address' }, 'MAIL_FROM must be an email address (got "not an address")'],
    [{ DKIM_DOMAIN: 'example.com' }, 'DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY together'],
  ])('refuses %j at boot', (env, problem) => {
    const attempt = () => emailTransportFor(configOf(env));
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(problem);
  });

  it('builds an SMTP transport from a complete configuration', () => {
    const transport = emailTransportFor(
      configOf({
        SMTP_URL: 'smtps://user:pass@mail.example.com:465',
        MAIL_FROM: 'no-reply@example.com',
        DKIM_DOMAIN: 'example.com',
        DKIM_SELECTOR: 's1',
        DKIM_PRIVATE_KEY: 'pem',
      }),
    );
    transport.close();
  });
});

describe('failureKindOf', () => {
  it.each([
    [{ responseCode: 451, command: 'RCPT TO' }, 'temporary'],
    [{ responseCode: 421, command: 'CONN' }, 'temporary'],
    [{ command: 'CONN', message: 'connect ECONNREFUSED' }, 'temporary'],
    [{ responseCode: 550, command: 'RCPT TO' }, 'bounced'],
    [{ responseCode: 553, command: 'RCPT TO' }, 'bounced'],
    [{ responseCode: 550, command: 'RCPT TO', response: '550 5.1.1 <a@b.example>: Recipient address rejected' }, 'bounced'],
    [{ responseCode: 554, command: 'RCPT TO', response: '554 5.1.2 Bad destination system address' }, 'bounced'],
    [{ responseCode: 550, command: 'RCPT TO', response: '550 5.7.1 Message rejected as spam' }, 'permanent'],
    [{ responseCode: 554, command: 'RCPT TO' }, 'permanent'],
    [{ responseCode: 554, command: 'DATA' }, 'permanent'],
    [{ responseCode: 535, command: 'AUTH PLAIN' }, 'permanent'],
  ])('classifies %j as %s', (err, kind) => {
    expect(failureKindOf(err)).toBe(kind);
  });
});
