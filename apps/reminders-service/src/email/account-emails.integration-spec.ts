import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { AccountEmailInput } from '#libs/contracts';
import { createTestStack, eventually, type FakeSmtp, startFakeSmtp, type TestStack } from '#libs/testing';
import { remindersServiceApp } from '../index.js';

const AUTH_URL = 'https://auth.signups.example.test';

describe('account emails (reminders.emails.account)', () => {
  let stack: TestStack;
  let smtp: FakeSmtp;
  let db: DataSource;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    stack = await createTestStack('reminders_account_emails');
    const app = await stack.boot(remindersServiceApp, {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'no-reply@signups.example.test',
      EMAIL_POLL_MS: '50',
      AUTH_URL,
      PLATFORM_NAME: 'Maple Signups',
    });
    db = app.context.dataSource!;
  });

  afterAll(async () => {
    await stack.close();
    await smtp.close();
  });

  const request = (overrides: Partial<AccountEmailInput> = {}): AccountEmailInput => ({
    requestId: randomUUID(),
    to: `person-${randomUUID().slice(0, 8)}@example.com`,
    kind: 'account_verification',
    link: `${AUTH_URL}/account/verify/${randomUUID()}`,
    expiresAt: '2030-01-02T03:04:00Z',
    ...overrides,
  });
  const received = (to: string) => smtp.messages.filter((m) => m.to.includes(to));

  it('sends the message from the platform, with both parts and the link, recorded with no organization and live', async () => {
    const input = request({ kind: 'password_reset' });
    const { id } = await stack.bus.request('reminders.emails.account', input);
    const [mail] = await eventually(() => {
      expect(received(input.to)).toHaveLength(1);
      return received(input.to);
    });
    expect(mail!.parsed.from?.value).toEqual([{ name: 'Maple Signups', address: 'no-reply@signups.example.test' }]);
    expect(mail!.parsed.subject).toBe('Reset your Maple Signups password');
    expect(mail!.parsed.text).toContain(input.link);
    expect(mail!.parsed.text).toContain('until 2 January 2030 at 03:04 UTC');
    expect(mail!.parsed.html).toContain(`href="${input.link}"`);
    const [row] = await db.query(`SELECT kind, organization_id, livemode, dedup_key FROM "reminders"."emails" WHERE id = $1`, [id]);
    expect(row).toEqual({ kind: 'password_reset', organization_id: null, livemode: true, dedup_key: `${input.requestId}:password_reset` });
  });

  it('records a request once: asked again, it answers the same email and sends nothing more', async () => {
    const input = request();
    const first = await stack.bus.request('reminders.emails.account', input);
    await expect(stack.bus.request('reminders.emails.account', input)).resolves.toEqual(first);
    expect(await db.query(`SELECT id FROM "reminders"."emails" WHERE to_address = $1`, [input.to])).toEqual([{ id: first.id }]);
    await eventually(() => expect(received(input.to)).toHaveLength(1));
  });

  it.each<[string, Partial<AccountEmailInput>, string]>([
    ['a link to another site', { link: 'https://evil.example/account/verify/x' }, 'link'],
    ['a link with credentials', { link: 'https://user:pw@auth.signups.example.test/account/verify/x' }, 'link'],
    ['a link that is no URL', { link: 'not a url' }, 'link'],
    ['an address that is none', { to: 'nobody' }, 'to'],
    ['another kind of message', { kind: 'reminder' as AccountEmailInput['kind'] }, 'kind'],
    ['an expiry that is no time', { expiresAt: 'tomorrow' }, 'expiresAt'],
    ['a request id that is no uuid', { requestId: 'r1' }, 'requestId'],
  ])('refuses %s (422 naming the field) and records nothing', async (_, overrides, path) => {
    const input = request(overrides);
    await expect(stack.bus.request('reminders.emails.account', input)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path })],
    });
    expect(await db.query(`SELECT 1 FROM "reminders"."emails" WHERE to_address = $1`, [input.to])).toEqual([]);
  });
});
