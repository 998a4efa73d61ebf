import type {
  OutboxMessageView,
  ParticipantView,
  ReminderPassView,
  ReminderStatusView,
  SignupView,
  WebhookWithSecretView,
} from '#libs/contracts';
import { twilioSignature } from '#libs/edge';
import type { ProblemBody } from '#libs/problem';
import { eventually, type Receiver, startReceiver, verifyWebhook } from '#libs/testing';
import { call, newTenant, request, type Tenant } from './support/api.js';
import { smsPass } from './support/reminders.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

const HOUR_MS = 3_600_000;
/** A US premium-rate number: valid, so a registration stores it, but never texted. */
const PREMIUM_RATE = '+19002345678';
let phoneSeq = 0;
const newPhone = () => `+1415555${String(2000 + (phoneSeq++ % 7000)).padStart(4, '0')}`;

describe('SMS reminders', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
  });

  const register = (signupId: string, phone?: string, name?: string) =>
    call(`/signups/${signupId}/participants`, { body: person([], { ...(phone && { phone }), ...(name && { name }) }) }).then((res) => {
      if (res.status !== 201) throw new Error(`register: ${res.status} ${JSON.stringify(res.body)}`);
    });
  const send = (signupId: string, key = tenant.key) =>
    call<ReminderPassView & ProblemBody>(`/signups/${signupId}/reminders/send`, { key, method: 'POST' });
  const outbox = (signupId: string, key = tenant.key) =>
    call<{ data: OutboxMessageView[] }>(`/signups/${signupId}/reminders/outbox`, { key });
  const status = (signupId: string, key = tenant.key) => call<ReminderStatusView & ProblemBody>(`/signups/${signupId}/reminders`, { key });
  /** The next UTC midnight, when the daily ceilings start again. */
  const nextMidnight = () => new Date(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`) + 24 * HOUR_MS).toISOString();

  /** Twilio's incoming-message webhook, signed as Twilio signs it (or with `signature`). */
  function inbound(params: Record<string, string>, signature?: string) {
    const { gatewayUrl, env } = stackInfo();
    const url = `${gatewayUrl}/hooks/twilio/inbound`;
    return fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature ?? twilioSignature(env.TWILIO_AUTH_TOKEN!, url, params),
      },
      body: new URLSearchParams(params).toString(),
    });
  }

  describe('POST /signups/{id}/reminders/send', () => {
    it('texts the participants with a phone who registered a moment ago, in sandbox into the outbox, and skips them on the next pass', async () => {
      const { signup } = await newSignup(tenant.key);
      const phones = [newPhone(), newPhone()];
      for (const phone of [...phones, undefined]) await register(signup.id, phone);
      const res = await send(signup.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(smsPass({ eligible: 2, sent: 2, failed: 0, notEligible: [] }));

      const box = await outbox(signup.id);
      expect(box.status).toBe(200);
      expect(box.body.data.map((m) => m.to).sort()).toEqual([...phones].sort());
      for (const message of box.body.data) {
        expect(message).toMatchObject({
          signupId: signup.id,
          trigger: 'manual',
          participantId: expect.any(String),
          createdAt: expect.any(String),
        });
        expect(message.body).toContain(signup.title);
        expect(message.body).toContain(signup.publicUrl);
        expect(message.body).toMatch(/Reply STOP to opt out\.$/);
      }
      expect((await send(signup.id)).body).toEqual(smsPass({ eligible: 0, sent: 0, failed: 0, notEligible: [] }));
      await eventually(async () => {
        const list = await call<{ data: ParticipantView[] }>(`/signups/${signup.id}/participants`, { key: tenant.key });
        expect(
          list.body.data
            .filter((p) => p.remindedAt !== null)
            .map((p) => p.phone)
            .sort(),
        ).toEqual([...phones].sort());
      });
    });

    it('sends live texts through the provider (log by default), with nothing in the outbox', async () => {
      const live = await tenant.newKey({ mode: 'live' });
      const { signup } = await newSignup(live.key);
      await register(signup.id, newPhone());
      expect((await send(signup.id, live.key)).body).toEqual(smsPass({ eligible: 1, sent: 1, failed: 0, notEligible: [] }));
      expect((await outbox(signup.id, live.key)).body).toEqual({ data: [] });
    });

    it('stores a premium-rate number but never texts it, counting it as not eligible with the reason', async () => {
      const { signup } = await newSignup(tenant.key);
      const mobile = newPhone();
      await register(signup.id, PREMIUM_RATE);
      await register(signup.id, mobile);
      expect((await send(signup.id)).body).toEqual(
        smsPass({ eligible: 1, sent: 1, failed: 0, notEligible: [{ reason: 'not_mobile', count: 1 }] }),
      );
      expect((await outbox(signup.id)).body.data.map((m) => m.to)).toEqual([mobile]);
      const list = await call<{ data: ParticipantView[] }>(`/signups/${signup.id}/participants`, { key: tenant.key });
      expect(list.body.data.map((p) => p.phone).sort()).toEqual([PREMIUM_RATE, mobile].sort());
      expect((await send(signup.id)).body).toEqual(
        smsPass({ eligible: 0, sent: 0, failed: 0, notEligible: [{ reason: 'not_mobile', count: 1 }] }),
      );
    });

    it('greets by a first name without the links, email addresses and phone numbers a participant wrote', async () => {
      const { signup } = await newSignup(tenant.key);
      const [linked, mixed] = [newPhone(), newPhone()];
      await register(signup.id, linked, 'evil.example/win');
      await register(signup.id, mixed, 'Ana www.evil.example +1 900 234 5678');
      expect((await send(signup.id)).body).toMatchObject({ sent: 2 });
      const bodies = Object.fromEntries((await outbox(signup.id)).body.data.map((m) => [m.to, m.body]));
      expect(bodies[linked]).toBe(
        `Hi there, a reminder: Neighbourhood potluck is on Tue, Jun 1, 2027, 6:00 PM UTC. Details: ${signup.publicUrl} Reply STOP to opt out.`,
      );
      expect(bodies[mixed]).toMatch(/^Hi Ana, a reminder: Neighbourhood potluck is on /);
      expect(bodies[mixed]).not.toMatch(/evil|900/);
    });

    it('answers 402 upgrade_required (feature) on the free tier', async () => {
      const free = await newTenant('free');
      const { signup } = await newSignup(free.key);
      const res = await send(signup.id, free.key);
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({
        code: 'upgrade_required',
        cause: { kind: 'feature', featureLabel: 'SMS reminders', currentTier: 'free', requiredTier: 'pro' },
      });
    });

    it('answers 400 bad_request for a draft or closed signup', async () => {
      const { signup: draft } = await newSignup(tenant.key, { publish: false });
      expect((await send(draft.id)).body).toMatchObject({ status: 400, code: 'bad_request' });
      const { signup: closed } = await newSignup(tenant.key);
      expect((await call(`/signups/${closed.id}/close`, { key: tenant.key, method: 'POST' })).status).toBe(200);
      const res = await send(closed.id);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('bad_request');
    });

    it("answers 403 for another organization's published signup, 404 for its draft or an unknown id, 422 for a malformed id", async () => {
      const other = await newTenant('pro');
      const { signup: published } = await newSignup(other.key);
      const { signup: draft } = await newSignup(other.key, { publish: false });
      expect((await send(published.id)).body).toMatchObject({ status: 403, code: 'forbidden' });
      expect((await outbox(published.id)).status).toBe(403);
      expect((await status(published.id)).body).toMatchObject({ status: 403, code: 'forbidden' });
      expect((await status(draft.id)).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await status('not-a-uuid')).body).toMatchObject({ status: 422, code: 'validation_failed' });
      expect((await send(draft.id)).body).toMatchObject({ status: 404, code: 'not_found' });
      expect((await send('0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6c')).status).toBe(404);
      expect((await send('not-a-uuid')).status).toBe(422);
    });

    it('needs reminders:send, for the pass, the status and the outbox', async () => {
      const { signup } = await newSignup(tenant.key);
      const narrow = await tenant.newKey({ scopes: 'signups:read signups:write' });
      for (const res of [await send(signup.id, narrow.key), await status(signup.id, narrow.key), await outbox(signup.id, narrow.key)]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ code: 'scope_required' });
        expect(res.headers.get('www-authenticate')).toContain('scope="reminders:send"');
      }
    });

    it('never texts anyone twice when passes run at once', async () => {
      const { signup } = await newSignup(tenant.key);
      for (let i = 0; i < 6; i += 1) await register(signup.id, newPhone());
      const results = await Promise.all(Array.from({ length: 4 }, () => send(signup.id)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(results.reduce((sum, r) => sum + r.body.sent, 0)).toBe(6);
      const box = await outbox(signup.id);
      expect(new Set(box.body.data.map((m) => m.to)).size).toBe(6);
      expect(box.body.data).toHaveLength(6);
    });
  });

  describe('GET /signups/{id}/reminders', () => {
    it("shows what remains of the day's SMS ceiling, less after a live pass, and the signup's texts so far", async () => {
      const live = await tenant.newKey({ mode: 'live' });
      const { signup } = await newSignup(live.key);
      for (const phone of [newPhone(), newPhone()]) await register(signup.id, phone);
      const before = await status(signup.id, live.key);
      expect(before.status).toBe(200);
      const day = { resetsAt: nextMidnight(), usesCeiling: true, available: true };
      expect(before.body).toEqual({
        channels: {
          sms: { ...day, ceiling: 200, used: expect.any(Number), remaining: 200 - before.body.channels.sms.used },
          email: { ...day, ceiling: 5000, used: expect.any(Number), remaining: 5000 - before.body.channels.email.used },
        },
        reminded: { sms: 0, email: 0 },
        lastSentAt: null,
      });

      expect((await send(signup.id, live.key)).body).toMatchObject({ sent: 2 });
      const after = await status(signup.id, live.key);
      expect(after.body.channels.sms).toEqual({
        ...before.body.channels.sms,
        used: before.body.channels.sms.used + 2,
        remaining: before.body.channels.sms.remaining - 2,
      });
      expect(after.body.reminded).toEqual({ sms: 2, email: 0 });
      expect(Date.parse(after.body.lastSentAt!)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('says a sandbox signup uses no ceiling and counts its stored texts; a free tier has no SMS', async () => {
      const { signup } = await newSignup(tenant.key);
      await register(signup.id, newPhone());
      expect((await send(signup.id)).body).toMatchObject({ sent: 1 });
      const sandbox = await status(signup.id);
      expect(sandbox.body.channels.sms).toMatchObject({ available: true, usesCeiling: false });
      expect(sandbox.body.reminded).toEqual({ sms: 1, email: 0 });

      const free = await newTenant('free');
      const { signup: freeSignup } = await newSignup(free.key);
      const res = await status(freeSignup.id, free.key);
      expect(res.body.channels).toEqual({
        sms: { available: false, ceiling: 0, used: 0, remaining: 0, resetsAt: nextMidnight(), usesCeiling: false },
        email: { available: true, ceiling: 200, used: 0, remaining: 200, resetsAt: nextMidnight(), usesCeiling: false },
      });
    });
  });

  describe('the inbound SMS webhook', () => {
    it('opts a number out on STOP and back in on START, and answers HELP with TwiML', async () => {
      const phone = newPhone();
      const stop = await inbound({ From: phone, To: '+15005550006', Body: 'STOP', MessageSid: 'SM1' });
      expect(stop.status).toBe(200);
      expect(stop.headers.get('content-type')).toMatch(/^text\/xml/);
      expect(await stop.text()).toBe('<?xml version="1.0" encoding="UTF-8"?><Response></Response>');

      const { signup } = await newSignup(tenant.key);
      await register(signup.id, phone);
      await register(signup.id, newPhone());
      expect((await send(signup.id)).body).toEqual(smsPass({ eligible: 1, sent: 1, failed: 0, notEligible: [] }));
      expect((await outbox(signup.id)).body.data.map((m) => m.to)).not.toContain(phone);

      const help = await inbound({ From: phone, Body: 'help' });
      expect(await help.text()).toMatch(
        /<Response><Message>Signup reminders: .*Reply STOP to opt out, START to opt back in\..*<\/Message><\/Response>$/,
      );
      await inbound({ From: phone, Body: 'START' });
      expect((await send(signup.id)).body).toEqual(smsPass({ eligible: 1, sent: 1, failed: 0, notEligible: [] }));
      expect((await outbox(signup.id)).body.data.map((m) => m.to)).toContain(phone);
    });

    it('refuses a request whose X-Twilio-Signature does not verify, with a problem', async () => {
      const phone = newPhone();
      const forged = await inbound({ From: phone, Body: 'STOP' }, 'c2lnbmVkIGJ5IG5vYm9keQ==');
      expect(forged.status).toBe(403);
      expect(forged.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await forged.json()).toMatchObject({ code: 'forbidden' });
      const unsigned = await request(`${stackInfo().gatewayUrl}/hooks/twilio/inbound`, {
        method: 'POST',
        body: { From: phone, Body: 'STOP' },
      });
      expect(unsigned.status).toBe(403);

      const { signup } = await newSignup(tenant.key);
      await register(signup.id, phone);
      expect((await send(signup.id)).body).toEqual(smsPass({ eligible: 1, sent: 1, failed: 0, notEligible: [] }));
    });
  });

  describe('the automatic pass', () => {
    it('texts the participants of a published signup once its event is 24 h away, once, and not those of a later event nor a premium-rate number', async () => {
      const { signup } = await newSignup(tenant.key, { fields: { eventDate: new Date(Date.now() + 72 * HOUR_MS).toISOString() } });
      const { signup: later } = await newSignup(tenant.key, { fields: { eventDate: new Date(Date.now() + 72 * HOUR_MS).toISOString() } });
      const phones = [newPhone(), newPhone()];
      await register(signup.id, phones[0], 'evil.example/win');
      await register(signup.id, phones[1]);
      await register(signup.id, PREMIUM_RATE);
      await register(later.id, newPhone());

      // Time passes: the event is now 12 h away (moving the date does what the clock would).
      const moved = await call<SignupView>(`/signups/${signup.id}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { eventDate: new Date(Date.now() + 12 * HOUR_MS).toISOString() },
      });
      expect(moved.status).toBe(200);
      await eventually(async () => {
        const box = await outbox(signup.id);
        expect(box.body.data.map((m) => m.to).sort()).toEqual([...phones].sort());
      }, 15_000);
      const texts = (await outbox(signup.id)).body.data;
      expect(texts.every((m) => m.trigger === 'automatic')).toBe(true);
      expect(texts.find((m) => m.to === phones[0])!.body).toMatch(/^Hi there, a reminder: /);

      // Once: someone registering now waits for the organizer's pass (several polls go by).
      await register(signup.id, newPhone());
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect((await outbox(signup.id)).body.data).toHaveLength(2);
      expect((await outbox(later.id)).body.data).toEqual([]);
      expect((await send(signup.id)).body).toEqual(
        smsPass({ eligible: 1, sent: 1, failed: 0, notEligible: [{ reason: 'not_mobile', count: 1 }] }),
      );
    });
  });

  describe('reminder.sent', () => {
    let receiver: Receiver;

    beforeAll(async () => {
      receiver = await startReceiver();
    });

    afterAll(() => receiver.close());

    it('is delivered to webhook endpoints that subscribe to it', async () => {
      const { signup } = await newSignup(tenant.key);
      const created = await call<WebhookWithSecretView>('/webhooks', {
        key: tenant.key,
        body: { url: receiver.url('/reminders'), eventTypes: ['reminder.sent'] },
      });
      expect(created.status).toBe(200);
      await register(signup.id, newPhone());
      expect((await send(signup.id)).body).toMatchObject({ sent: 1 });
      await eventually(() => expect(receiver.received.filter((r) => r.path === '/reminders')).toHaveLength(1), 15_000);
      const payload = verifyWebhook(
        created.body.signingSecret,
        receiver.received.find((r) => r.path === '/reminders')!,
      ) as { type: string; data: Record<string, unknown> };
      expect(payload).toMatchObject({
        type: 'reminder.sent',
        data: {
          signupId: signup.id,
          participantId: expect.any(String),
          trigger: 'manual',
          organizationId: tenant.organization.id,
          livemode: false,
        },
      });
    });
  });
});
