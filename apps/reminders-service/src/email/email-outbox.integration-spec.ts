import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type EmailKind, type EmailStatus, newPrefixedId } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, eventually, type FakeSmtp, startFakeSmtp, type TestStack } from '#libs/testing';
import { remindersServiceApp } from '../index.js';
import { EmailSender } from './email-sender.js';
import { Emails, type NewEmail } from './emails.js';
import { EMAILS_PER_RECIPIENT_PER_DAY } from './emails.repository.js';

const ICS = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'METHOD:REQUEST', 'END:VCALENDAR', ''].join('\r\n');

describe('the email outbox', () => {
  let stack: TestStack;
  let smtp: FakeSmtp;
  let app: RunningApp;
  let db: DataSource;
  const appEnv = () => ({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'no-reply@signups.example.test',
    EMAIL_RETRY_SCHEDULE: '100ms,100ms',
    EMAIL_POLL_MS: '50',
    SMTP_TIMEOUT_MS: '2000',
    PUBLIC_BASE_URL: 'https://signups.example.test/api/v1',
  });

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    stack = await createTestStack('reminders_emails', { transport: 'nats' });
    app = await stack.boot(remindersServiceApp, appEnv());
    db = app.context.dataSource!;
  });

  afterAll(async () => {
    await stack.close();
    await smtp.close();
  });

  let seq = 0;
  const address = () => `person${++seq}-${randomUUID().slice(0, 8)}@example.com`;

  function email(overrides: Partial<NewEmail> = {}): NewEmail {
    return {
      dedupKey: `${randomUUID()}:confirmation`,
      kind: 'confirmation',
      organizationId: newPrefixedId('org'),
      senderName: 'Maple Street School',
      livemode: true,
      signupId: randomUUID(),
      participantId: randomUUID(),
      to: address(),
      content: { subject: "You're signed up: Winter potluck", text: 'See you there.', html: '<p>See you there.</p>', calendar: null },
      ...overrides,
    };
  }

  /** Records emails in one transaction, as a consumer does, then wakes the sender. */
  async function record(running: RunningApp, ...emails: NewEmail[]): Promise<(EmailStatus | undefined)[]> {
    const outbox = running.app.get(Emails);
    const recorded = await running.context.dataSource!.transaction((manager) => Promise.all(emails.map((e) => outbox.record(manager, e))));
    outbox.queued();
    return recorded.map((email) => email?.status);
  }

  const received = (to: string) => smtp.messages.filter((m) => m.to.includes(to));
  const rowOf = async (to: string) => {
    const [row] = await db.query(
      `SELECT id, status, attempts, last_error AS "lastError", sealed FROM "reminders"."emails" WHERE to_address = $1`,
      [to],
    );
    return row as { id: string; status: EmailStatus; attempts: number; lastError: string | null; sealed: string };
  };

  it('sends a message with both parts, the organization as sender name, a stable Message-ID and the invitation', async () => {
    const message = email({
      content: { subject: 'Hi', text: 'Plain words.', html: '<p>Rich words.</p>', calendar: { method: 'REQUEST', ics: ICS } },
    });
    expect(await record(app, message)).toEqual(['queued']);
    const [mail] = await eventually(() => {
      expect(received(message.to)).toHaveLength(1);
      return received(message.to);
    });
    const row = await eventually(async () => {
      const r = await rowOf(message.to);
      expect(r.status).toBe('sent');
      return r;
    });
    const parsed = mail!.parsed;
    expect(parsed.from?.value).toEqual([{ name: 'Maple Street School', address: 'no-reply@signups.example.test' }]);
    expect(parsed.messageId).toBe(`<${row.id}@signups.example.test>`);
    expect(parsed.subject).toBe('Hi');
    expect(parsed.text?.trim()).toBe('Plain words.');
    expect(parsed.html).toContain('<p>Rich words.</p>');
    const invite = parsed.attachments.find((a) => a.contentType.startsWith('text/calendar'));
    expect(invite?.content.toString()).toContain('METHOD:REQUEST');
    expect(parsed.headers.has('list-unsubscribe')).toBe(false);
    expect(row.sealed).not.toContain('Rich words');
  });

  it('records a message once per dedup key: a redelivered event sends nothing more', async () => {
    const message = email();
    expect(await record(app, message)).toEqual(['queued']);
    expect(await record(app, { ...message, content: { ...message.content, subject: 'Again' } })).toEqual([undefined]);
    await eventually(async () => expect((await rowOf(message.to)).status).toBe('sent'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received(message.to)).toHaveLength(1);
  });

  it('mails one address at most its allowance a day from one organization, whatever the kinds; other organizations and account mail are apart', async () => {
    const organizationId = newPrefixedId('org');
    const to = address();
    const many = Array.from({ length: EMAILS_PER_RECIPIENT_PER_DAY + 1 }, (_, i) =>
      email({ organizationId, to: i % 2 === 0 ? to : to.toUpperCase(), kind: i % 3 === 0 ? 'change' : 'confirmation', livemode: false }),
    );
    const statuses = await record(app, ...many);
    expect(statuses.slice(0, EMAILS_PER_RECIPIENT_PER_DAY).every((status) => status === 'stored')).toBe(true);
    expect(statuses.at(-1)).toBe('suppressed');
    expect(await record(app, email({ to, livemode: false }))).toEqual(['stored']);
    expect(await record(app, email({ organizationId: null, to, kind: 'account_verification', livemode: false }))).toEqual(['stored']);
  });

  it('tries again after a temporary failure (451), and sends once', async () => {
    const message = email();
    smtp.reject(message.to, 451, 1);
    await record(app, message);
    const row = await eventually(async () => {
      const r = await rowOf(message.to);
      expect(r.status).toBe('sent');
      return r;
    });
    expect(row.attempts).toBe(2);
    expect(received(message.to)).toHaveLength(1);
  });

  it('fails for good on a hard bounce (550) and suppresses the address for every organization', async () => {
    const message = email();
    smtp.reject(message.to, 550);
    await record(app, message);
    const row = await eventually(async () => {
      const r = await rowOf(message.to);
      expect(r.status).toBe('failed');
      return r;
    });
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/550/);
    expect(received(message.to)).toHaveLength(0);
    const later = email({ to: message.to.toUpperCase(), organizationId: newPrefixedId('org'), kind: 'password_reset' });
    expect(await record(app, later)).toEqual(['suppressed']);
  });

  it('gives up after the last retry of the schedule', async () => {
    const message = email();
    smtp.reject(message.to, 451);
    await record(app, message);
    const row = await eventually(async () => {
      const r = await rowOf(message.to);
      expect(r.status).toBe('failed');
      return r;
    });
    expect(row.attempts).toBe(3);
  });

  it('answers the mailbox subjects only with MAILBOX_PAGE (a local run): stored mail of every organization is not for the gateway to list', async () => {
    await expect(stack.bus.request('reminders.mailbox.list', { limit: 10 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(stack.bus.request('reminders.mailbox.get', { id: randomUUID() })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('stores sandbox messages and never sends them', async () => {
    const message = email({ livemode: false });
    expect(await record(app, message)).toEqual(['stored']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await rowOf(message.to)).status).toBe('stored');
    expect(received(message.to)).toHaveLength(0);
  });

  it("puts a one-click unsubscribe on reminders; it stops that organization's reminders to that address and nothing else", async () => {
    const organizationId = newPrefixedId('org');
    const to = address();
    const reminder = (kind: EmailKind, org = organizationId) =>
      email({ kind, organizationId: org, to, dedupKey: `${randomUUID()}:${kind}` });
    await record(app, reminder('reminder'));
    const [mail] = await eventually(() => {
      expect(received(to)).toHaveLength(1);
      return received(to);
    });
    const headers = mail!.raw
      .toString()
      .split('\r\n\r\n')[0]!
      .replace(/\r\n[ \t]+/g, ' ');
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const url = /^List-Unsubscribe: <(https:\/\/signups\.example\.test\/unsubscribe\/[^>]+)>$/m.exec(headers)?.[1];
    expect(url).toBeDefined();
    const token = url!.slice(url!.lastIndexOf('/') + 1);
    await expect(stack.bus.request('reminders.unsubscribe', { token })).resolves.toEqual({ unsubscribed: true });
    await expect(stack.bus.request('reminders.unsubscribe', { token: `${token}x` })).rejects.toMatchObject({ code: 'not_found' });
    expect(await record(app, reminder('reminder'), reminder('confirmation'), reminder('reminder', newPrefixedId('org')))).toEqual([
      'suppressed',
      'queued',
      'queued',
    ]);
  });

  it('keeps CR/LF in titles and names out of the headers, and anything that reads as an address out of the sender name', async () => {
    const message = email({
      senderName: 'Evil"\r\nBcc: victim@example.com',
      content: { subject: 'Potluck\r\nBcc: victim@example.com\u2028X-Hidden: 1', text: 't', html: '<p>h</p>', calendar: null },
    });
    await record(app, message);
    const [mail] = await eventually(() => {
      expect(received(message.to)).toHaveLength(1);
      return received(message.to);
    });
    expect(mail!.to).toEqual([message.to]);
    expect(mail!.parsed.subject).toBe('Potluck Bcc: victim@example.com X-Hidden: 1');
    expect(mail!.parsed.from?.value[0]?.name).toBe('Evil Bcc: victim example.com');
    expect(mail!.parsed.headers.has('bcc')).toBe(false);
    expect(mail!.parsed.headers.has('x-hidden')).toBe(false);
  });

  it('sends a message recorded by a replica that stopped before sending it, once, after a restart', async () => {
    const first = await stack.boot(remindersServiceApp, appEnv());
    await first.app.get(EmailSender).stop();
    await app.app.get(EmailSender).stop();
    const message = email();
    expect(await record(first, message)).toEqual(['queued']);
    await first.close();
    expect(received(message.to)).toHaveLength(0);
    const second = await stack.boot(remindersServiceApp, appEnv());
    await eventually(async () => expect((await rowOf(message.to)).status).toBe('sent'));
    expect(received(message.to)).toHaveLength(1);
    await second.close();
    app.app.get(EmailSender).start();
  });

  it('counts each email once where it ended, by kind, in emails_total', async () => {
    const counts = async (): Promise<Record<string, number>> => {
      const text = await (await fetch(`${app.url}/metrics`)).text();
      const lines = text.matchAll(/^emails_total\{kind="(\w+)",outcome="(\w+)",app="reminders-service"\} (\d+)$/gm);
      return Object.fromEntries([...lines].map(([, kind, outcome, count]) => [`${kind}/${outcome}`, Number(count)]));
    };
    const before = await counts();
    const [sent, bounced, stored] = [email({ kind: 'offer' }), email({ kind: 'offer' }), email({ kind: 'offer', livemode: false })];
    smtp.reject(bounced.to, 550);
    await record(app, sent, bounced, stored);
    await eventually(async () => {
      const after = await counts();
      const delta = (key: string) => (after[key] ?? 0) - (before[key] ?? 0);
      expect([delta('offer/sent'), delta('offer/failed'), delta('offer/stored')]).toEqual([1, 1, 1]);
    });
  });

  it('takes over a message a dead replica left sending once its lease ended', async () => {
    const message = email();
    await app.app.get(EmailSender).stop();
    await record(app, message);
    await db.query(
      `UPDATE "reminders"."emails" SET status = 'sending', attempts = 1, lease_until = now() - interval '1 second' WHERE to_address = $1`,
      [message.to],
    );
    app.app.get(EmailSender).start();
    await eventually(async () => expect((await rowOf(message.to)).status).toBe('sent'));
    expect(received(message.to)).toHaveLength(1);
  });
});
