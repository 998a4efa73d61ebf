import type { EmailListView, EmailView, ParticipantView, ReminderPassView, SignupView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { eventually } from '#libs/testing';
import { call, newTenant, type Tenant } from './support/api.js';
import { emailPass } from './support/reminders.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

const HOUR_MS = 3_600_000;
const NONE = { eligible: 0, sent: 0, failed: 0, notEligible: [] };

describe('email reminders (stored: the stack has no SMTP server)', () => {
  const { gatewayUrl } = stackInfo();

  const send = (signupId: string, key: string, body?: unknown) =>
    call<ReminderPassView & ProblemBody>(`/signups/${signupId}/reminders/send`, {
      key,
      method: 'POST',
      ...(body !== undefined && { body }),
    });
  const register = async (signupId: string, overrides: Record<string, unknown> = {}) => {
    const who = person([], overrides);
    expect((await call(`/signups/${signupId}/participants`, { body: who })).status).toBe(201);
    return who;
  };
  const remindersOf = async (signupId: string, key: string): Promise<EmailView[]> =>
    (await call<EmailListView>(`/signups/${signupId}/emails`, { key })).body.data.filter((email) => email.kind === 'reminder');

  it('emails each address of the confirmed participants once, on every tier, with the edit and unsubscribe links', async () => {
    const tenant = await newTenant('free');
    const { signup } = await newSignup(tenant.key);
    const ada = await register(signup.id);
    const bo = await register(signup.id);
    // Ada's partner registered with her address: one reminder per address.
    await register(signup.id, { email: ada.email.toUpperCase() });

    expect((await send(signup.id, tenant.key)).body.code).toBe('upgrade_required');
    const res = await send(signup.id, tenant.key, { channel: 'email' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(emailPass({ eligible: 2, sent: 2, failed: 0, notEligible: [] }));

    const reminders = await remindersOf(signup.id, tenant.key);
    expect(reminders.map((email) => email.to.toLowerCase()).sort()).toEqual([ada.email, bo.email].sort());
    for (const reminder of reminders) {
      expect(reminder.status).toBe('stored');
      expect(reminder.subject).toContain(signup.title);
      expect(reminder.text).toContain(`${gatewayUrl}/r/`);
      expect(reminder.unsubscribeUrl).toMatch(new RegExp(`^${gatewayUrl}/unsubscribe/`));
      expect(reminder.calendar).toBeNull();
    }
    expect((await send(signup.id, tenant.key, { channel: 'email' })).body).toEqual(emailPass(NONE));
    await eventually(async () => {
      const list = await call<{ data: ParticipantView[] }>(`/signups/${signup.id}/participants`, { key: tenant.key });
      expect(list.body.data.filter((p) => p.remindedAt !== null)).toHaveLength(2);
    });
  });

  it("leaves out an address that unsubscribed from the organization's reminders, counting it, and only that organization's", async () => {
    const tenant = await newTenant('free');
    const { signup } = await newSignup(tenant.key);
    const ada = await register(signup.id);
    await send(signup.id, tenant.key, { channel: 'email' });
    const [reminder] = await remindersOf(signup.id, tenant.key);
    const unsubscribed = await fetch(reminder!.unsubscribeUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribed.status).toBe(200);

    const { signup: next } = await newSignup(tenant.key);
    await register(next.id, { email: ada.email });
    await register(next.id);
    expect((await send(next.id, tenant.key, { channel: 'email' })).body).toEqual(
      emailPass({ eligible: 1, sent: 1, failed: 0, notEligible: [{ reason: 'unsubscribed', count: 1 }] }),
    );

    const other = await newTenant('free');
    const { signup: elsewhere } = await newSignup(other.key);
    await register(elsewhere.id, { email: ada.email });
    expect((await send(elsewhere.id, other.key, { channel: 'email' })).body).toEqual(
      emailPass({ eligible: 1, sent: 1, failed: 0, notEligible: [] }),
    );
  });

  it('reminds by both channels in one pass, counting each apart and summing them', async () => {
    const tenant: Tenant = await newTenant('pro');
    const { signup } = await newSignup(tenant.key);
    await register(signup.id, { phone: '+14155553001' });
    await register(signup.id, { phone: '+14155553002' });
    await register(signup.id);
    const res = await send(signup.id, tenant.key, { channel: 'both' });
    expect(res.status).toBe(200);
    const sms = { eligible: 2, sent: 2, failed: 0, notEligible: [] };
    const email = { eligible: 3, sent: 3, failed: 0, notEligible: [] };
    expect(res.body).toEqual({ eligible: 5, sent: 5, failed: 0, notEligible: [], channels: { email, sms } });
    expect((await send(signup.id, tenant.key, { channel: 'both' })).body).toEqual({ ...NONE, channels: { email: NONE, sms: NONE } });
  });

  it('emails nobody twice when passes run at once', async () => {
    const tenant = await newTenant('free');
    const { signup } = await newSignup(tenant.key);
    for (let i = 0; i < 6; i++) await register(signup.id);
    const passes = await Promise.all(Array.from({ length: 5 }, () => send(signup.id, tenant.key, { channel: 'email' })));
    expect(passes.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(passes.reduce((sum, res) => sum + res.body.sent, 0)).toBe(6);
    const reminders = await remindersOf(signup.id, tenant.key);
    expect(new Set(reminders.map((email) => email.to)).size).toBe(6);
    expect(reminders).toHaveLength(6);
  });

  it('refuses an unknown channel with 422 on channel, and a draft signup with 400, by email too', async () => {
    const tenant = await newTenant('free');
    const { signup } = await newSignup(tenant.key);
    const wrong = await send(signup.id, tenant.key, { channel: 'fax' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([expect.objectContaining({ path: 'channel' })]);
    const { signup: draft } = await newSignup(tenant.key, { publish: false });
    expect((await send(draft.id, tenant.key, { channel: 'email' })).status).toBe(400);
  });

  it('emails the automatic reminder once the event is 24 h away, on the free tier too', async () => {
    const tenant = await newTenant('free');
    const { signup } = await newSignup(tenant.key, { fields: { eventDate: new Date(Date.now() + 72 * HOUR_MS).toISOString() } });
    const ada = await register(signup.id);
    const moved = await call<SignupView>(`/signups/${signup.id}`, {
      key: tenant.key,
      method: 'PATCH',
      body: { eventDate: new Date(Date.now() + 12 * HOUR_MS).toISOString() },
    });
    expect(moved.status).toBe(200);
    const [reminder] = await eventually(async () => {
      const reminders = await remindersOf(signup.id, tenant.key);
      expect(reminders).toHaveLength(1);
      return reminders;
    }, 15_000);
    expect(reminder!.to).toBe(ada.email);
    expect((await send(signup.id, tenant.key, { channel: 'email' })).body).toEqual(emailPass(NONE));
  });
});
