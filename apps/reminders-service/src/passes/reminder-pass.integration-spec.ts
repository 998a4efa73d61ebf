import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Tier } from '#libs/config';
import {
  type CloudEvent,
  cloudEvent,
  newPrefixedId,
  type ParticipantStatus,
  type ReminderTrigger,
  type SignupView,
  utcDay,
} from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import {
  createTestStack,
  eventually,
  type FakeTwilio,
  participantEventData,
  problemOf,
  signupViewData,
  startFakeTwilio,
  type TestStack,
} from '#libs/testing';
import { remindersServiceApp } from '../index.js';
import { passTargetOf } from './automatic-passes.js';
import type { PassTarget } from './channel-outcome.js';
import { PassesRepository } from './passes.repository.js';
import { type PassOutcome, ReminderPasses } from './reminder-passes.js';

const SID = `AC${'0'.repeat(32)}`;
const TOKEN = 'twilio-test-auth-token';
const FROM = '+15005550006';
const CEILING = 5;
const EVENT_DATE = '2026-12-05T17:00:00.000Z';

let phoneSeq = 0;
/** A fresh valid US number per call (555-01xx are reserved for fiction). */
const newPhone = () => `+1415555${String(1000 + (phoneSeq++ % 9000)).padStart(4, '0')}`;

type SmsPass = { run(target: PassTarget, trigger: ReminderTrigger): Promise<Omit<PassOutcome, 'channels'>> };

/** A replica's passes by text alone (the organizer's default): the one channel's counts are the totals. */
function smsOnly(running: RunningApp): SmsPass {
  const passes = running.app.get(ReminderPasses);
  return {
    run: async (target, trigger) => {
      const { channels, ...outcome } = await passes.run(target, trigger, ['sms']);
      const { eligible, sent, failed, notEligible } = outcome;
      expect(channels).toEqual({ sms: { eligible, sent, failed, notEligible } });
      return outcome;
    },
  };
}

describe('reminder passes', () => {
  let stack: TestStack;
  let app: RunningApp;
  let twilio: FakeTwilio;
  let pass: SmsPass;
  let db: DataSource;
  const sent: CloudEvent<'reminder.sent'>[] = [];
  /** The app's environment: texts through the fake Twilio, a small ceiling for pro. */
  const appEnv = (more: Record<string, string> = {}) => ({
    SMS_PROVIDER: 'twilio',
    TWILIO_API_BASE: twilio.baseUrl,
    TWILIO_ACCOUNT_SID: SID,
    TWILIO_AUTH_TOKEN: TOKEN,
    TWILIO_FROM: FROM,
    SMS_TIMEOUT_MS: '300',
    // The automatic passes run by hand here (passTargetOf), never on the app's own timer.
    REMINDER_POLL_MS: '3600000',
    TIER_LIMITS: JSON.stringify({ pro: { smsPerDay: CEILING } }),
    ...more,
  });

  beforeAll(async () => {
    twilio = await startFakeTwilio({ accountSid: SID, authToken: TOKEN });
    stack = await createTestStack('reminders_passes', { transport: 'nats' });
    app = await stack.boot(remindersServiceApp, appEnv());
    pass = smsOnly(app);
    db = app.context.dataSource!;
    await stack.bus.broadcast(['reminder.sent'], async (event) => {
      sent.push(event as CloudEvent<'reminder.sent'>);
    });
  });

  afterEach(() => {
    twilio.mode('ok');
    twilio.delayMs(0);
  });

  afterAll(async () => {
    await stack.close();
    await twilio.close();
  });

  interface Seeded {
    signup: SignupView;
    target: PassTarget;
    phones: string[];
    participantIds: string[];
  }

  /**
   * A published signup with participants as the signups-service's events describe them (one
   * phone each unless given), applied by the projection.
   */
  async function seed(
    options: {
      phones?: (string | null)[];
      names?: string[];
      statuses?: ParticipantStatus[];
      livemode?: boolean;
      tier?: Tier;
      organizationId?: string;
      eventDate?: string;
      timeZone?: string;
      reminderHoursBefore?: number;
    } = {},
  ): Promise<Seeded> {
    const organizationId = options.organizationId ?? newPrefixedId('org');
    const livemode = options.livemode ?? true;
    const id = randomUUID();
    const publicUrl = `https://signups.example.test/s/potluck-${id.slice(0, 6)}`;
    const signup = signupViewData(organizationId, {
      id,
      publicUrl,
      eventDate: options.eventDate ?? EVENT_DATE,
      timeZone: options.timeZone ?? 'UTC',
      reminderHoursBefore: options.reminderHoursBefore ?? 24,
      livemode,
    });
    const meta = { orgid: organizationId, livemode };
    await stack.bus.publish(cloudEvent('signups-service', 'signup.published', signup, meta));
    const phones = options.phones ?? [newPhone(), newPhone(), newPhone()];
    const participantIds: string[] = [];
    for (const [i, phone] of phones.entries()) {
      const participant = participantEventData(id, organizationId, {
        name: options.names?.[i] ?? `Guest${i} Example`,
        email: `guest${i}@example.com`,
        phone,
        status: options.statuses?.[i] ?? 'confirmed',
        livemode,
      });
      participantIds.push(participant.id);
      await stack.bus.publish(cloudEvent('signups-service', 'participant.registered', participant, meta));
    }
    const repo = app.app.get(PassesRepository);
    await eventually(async () => expect(await repo.activeParticipants(id)).toBe(phones.length));
    const target: PassTarget = {
      signupId: id,
      organizationId,
      livemode,
      tier: options.tier ?? 'pro',
      title: signup.title,
      eventDate: signup.eventDate,
      timeZone: signup.timeZone,
      publicUrl,
    };
    return { signup, target, phones: phones.filter((p): p is string => p !== null), participantIds };
  }

  const textsTo = (phones: string[]) => twilio.messages.filter((m) => phones.includes(m.to));
  const sentToday = async (organizationId: string) =>
    (
      (await db.query(`SELECT sent FROM reminders.daily_sms WHERE organization_id = $1 AND day = $2`, [organizationId, utcDay().day])) as {
        sent: number;
      }[]
    )[0]?.sent ?? 0;

  it('texts each participant with a phone once, with the title, date and time, link and STOP line', async () => {
    const { target, phones } = await seed({ phones: [newPhone(), null, newPhone()] });
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 2, sent: 2, failed: 0, complete: true });
    const texts = textsTo(phones);
    expect(texts.map((m) => m.to).sort()).toEqual([...phones].sort());
    for (const text of texts) {
      expect(text.from).toBe(FROM);
      expect(text.body).toMatch(/^Hi Guest, a reminder: Winter potluck is on Sat, Dec 5, 2026, 5:00 PM UTC\. /);
      expect(text.body).toContain(target.publicUrl);
      expect(text.body).toMatch(/Reply STOP to opt out\.$/);
    }
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 0, sent: 0, failed: 0 });
    expect(textsTo(phones)).toHaveLength(2);
  });

  it("says the date and time in the signup's time zone, with the zone's name", async () => {
    const { target, phones } = await seed({ phones: [newPhone()], timeZone: 'America/New_York' });
    await pass.run(target, 'manual');
    expect(textsTo(phones)[0]!.body).toBe(
      `Hi Guest, a reminder: Winter potluck is on Sat, Dec 5, 2026, 12:00 PM EST. Details: ${target.publicUrl} Reply STOP to opt out.`,
    );
  });

  it("texts the automatic pass in the zone the projection keeps from the signup's latest event", async () => {
    const hour = 3_600_000;
    const eventDate = new Date(Math.ceil((Date.now() + 2 * hour) / hour) * hour).toISOString();
    const { signup, target, phones } = await seed({ phones: [newPhone()], eventDate });
    const moved = { ...signup, timeZone: 'Asia/Calcutta' };
    await stack.bus.publish(cloudEvent('signups-service', 'signup.updated', moved, { orgid: target.organizationId, livemode: true }));
    await eventually(async () =>
      expect(await db.query(`SELECT time_zone FROM reminders.signups WHERE id = $1`, [target.signupId])).toEqual([
        { time_zone: 'Asia/Calcutta' },
      ]),
    );
    const due = await app.app.get(PassesRepository).leaseDue(600);
    expect(due).toMatchObject({ id: target.signupId, timeZone: 'Asia/Calcutta' });
    expect(await pass.run(passTargetOf(due!, 'pro'), 'automatic')).toMatchObject({ sent: 1, complete: true });
    expect(textsTo(phones)[0]!.body).toMatch(
      /^Hi Guest, a reminder: Winter potluck is on [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:30 [AP]M GMT\+5:30\. Details: /,
    );
  });

  describe("the automatic pass's lead: each signup's reminderHoursBefore", () => {
    const HOUR = 3_600_000;
    const hoursAway = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();
    const projectedHours = async (signupId: string) =>
      (
        (await db.query(`SELECT reminder_hours_before FROM reminders.signups WHERE id = $1`, [signupId])) as {
          reminder_hours_before: number;
        }[]
      )[0]?.reminder_hours_before;
    /** A published signup as the projection has it, with the lead given. */
    const projected = async (eventDate: string, reminderHoursBefore: number) => {
      const seeded = await seed({ phones: [], eventDate, reminderHoursBefore });
      await eventually(async () => expect(await projectedHours(seeded.signup.id)).toBe(reminderHoursBefore));
      return seeded;
    };
    /** The ids of every signup due now, each leased as a replica's poll leases them, one at a time. */
    const leaseEveryDue = async () => {
      const leased: string[] = [];
      for (let due = await app.app.get(PassesRepository).leaseDue(600); due; due = await app.app.get(PassesRepository).leaseDue(600)) {
        leased.push(due.id);
      }
      return leased;
    };
    const update = (signup: SignupView, changes: Partial<SignupView>) =>
      stack.bus.publish(
        cloudEvent('signups-service', 'signup.updated', { ...signup, ...changes }, { orgid: signup.organizationId, livemode: true }),
      );

    it('is due 30 h before the event for a signup at 48, when one at the default 24 is not yet', async () => {
      const early = await projected(hoursAway(30), 48);
      const usual = await projected(hoursAway(30), 24);
      const leased = await leaseEveryDue();
      expect(leased).toContain(early.signup.id);
      expect(leased).not.toContain(usual.signup.id);
    });

    it('is due within 24 h of the event at the default 24', async () => {
      const { signup } = await projected(hoursAway(23), 24);
      expect(await leaseEveryDue()).toContain(signup.id);
    });

    it('is never due for a signup at 0, however close its event', async () => {
      const { signup } = await projected(hoursAway(1), 0);
      expect(await leaseEveryDue()).not.toContain(signup.id);
    });

    it('is due at the next poll once a change of the setting brings it within reach, and never again once done for that event date', async () => {
      const { signup } = await projected(hoursAway(30), 24);
      expect(await leaseEveryDue()).not.toContain(signup.id);
      await update(signup, { reminderHoursBefore: 48 });
      await eventually(async () => expect(await projectedHours(signup.id)).toBe(48));
      const passes = app.app.get(PassesRepository);
      const due = await passes.leaseDue(600);
      expect(due).toMatchObject({ id: signup.id });
      await passes.finishAutomaticPass(due!);
      await update(signup, { reminderHoursBefore: 72 });
      await eventually(async () => expect(await projectedHours(signup.id)).toBe(72));
      expect(await leaseEveryDue()).not.toContain(signup.id);
    });
  });

  it('emits reminder.sent for each text, once', async () => {
    const { target, participantIds } = await seed({ phones: [newPhone(), newPhone()] });
    await pass.run(target, 'automatic');
    await eventually(() => expect(sent.filter((e) => e.data.signupId === target.signupId)).toHaveLength(2));
    const events = sent.filter((e) => e.data.signupId === target.signupId);
    expect(events.map((e) => e.data.participantId).sort()).toEqual([...participantIds].sort());
    expect(events[0]).toMatchObject({
      type: 'reminder.sent',
      orgid: target.organizationId,
      livemode: true,
      subject: target.signupId,
      data: {
        trigger: 'automatic',
        organizationId: target.organizationId,
        livemode: true,
        sentAt: expect.any(String),
        id: expect.any(String),
      },
    });
  });

  it('texts only the participants that hold a place: not one waiting in a line or holding an offer', async () => {
    const { target, phones } = await seed({ statuses: ['confirmed', 'waitlisted', 'offered'] });
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 1, sent: 1, failed: 0 });
    expect(textsTo(phones).map((m) => m.to)).toEqual([phones[0]]);
  });

  it('texts a phone shared by two participants once', async () => {
    const shared = newPhone();
    const { target } = await seed({ phones: [shared, shared] });
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 1, sent: 1, failed: 0 });
    expect(textsTo([shared])).toHaveLength(1);
  });

  it('stops at the daily ceiling, leaves the rest eligible, and answers 429 once nothing remains', async () => {
    const organizationId = newPrefixedId('org');
    const first = await seed({ organizationId, phones: Array.from({ length: CEILING + 2 }, newPhone) });
    expect(await pass.run(first.target, 'manual')).toEqual({
      eligible: CEILING + 2,
      sent: CEILING,
      failed: 0,
      notEligible: [],
      complete: false,
    });
    expect(textsTo(first.phones)).toHaveLength(CEILING);
    expect(await sentToday(organizationId)).toBe(CEILING);

    const second = await seed({ organizationId });
    const problem = await problemOf(pass.run(second.target, 'manual'));
    expect(problem).toMatchObject({ code: 'daily_ceiling_exceeded', status: 429 });
    expect(Number(problem.headers['retry-after'])).toBeGreaterThan(0);
    expect(textsTo(second.phones)).toHaveLength(0);

    const otherOrganization = await seed();
    expect(await pass.run(otherOrganization.target, 'manual')).toMatchObject({ sent: 3 });
  });

  it('never texts a person twice when passes run at once, and never beyond the ceiling', async () => {
    const { target, phones } = await seed({ phones: Array.from({ length: 4 }, newPhone) });
    twilio.delayMs(50);
    const results = await Promise.all(Array.from({ length: 5 }, () => pass.run(target, 'manual')));
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(4);
    for (const r of results) expect(r.sent + r.failed).toBeLessThanOrEqual(r.eligible);
    expect(
      textsTo(phones)
        .map((m) => m.to)
        .sort(),
    ).toEqual([...phones].sort());

    const crowded = await seed({ phones: Array.from({ length: CEILING + 3 }, newPhone) });
    const passes = await Promise.allSettled(Array.from({ length: 4 }, () => pass.run(crowded.target, 'manual')));
    const texted = textsTo(crowded.phones);
    expect(texted).toHaveLength(CEILING);
    expect(new Set(texted.map((m) => m.to)).size).toBe(CEILING);
    expect(passes.filter((p) => p.status === 'fulfilled').reduce((sum, p) => sum + (p.status === 'fulfilled' ? p.value.sent : 0), 0)).toBe(
      CEILING,
    );
  });

  it('holds the ceiling across signups of one organization passing at once', async () => {
    const organizationId = newPrefixedId('org');
    const signups = await Promise.all([seed({ organizationId }), seed({ organizationId }), seed({ organizationId })]);
    const results = await Promise.allSettled(signups.map(({ target }) => pass.run(target, 'manual')));
    const sentTotal = results.reduce((sum, r) => sum + (r.status === 'fulfilled' ? r.value.sent : 0), 0);
    expect(sentTotal).toBe(CEILING);
    expect(textsTo(signups.flatMap((s) => s.phones))).toHaveLength(CEILING);
    expect(await sentToday(organizationId)).toBe(CEILING);
  });

  it('takes over the claims of a pass that died, but never texts again someone whose text was being sent', async () => {
    const { target, phones, participantIds } = await seed({ phones: [newPhone(), newPhone(), newPhone()] });
    const leftover = (participantId: string, phone: string, status: string, age: string) =>
      db.query(
        `INSERT INTO reminders.messages (id, signup_id, participant_id, organization_id, livemode, phone, body, trigger, status, claimed_at)
         VALUES (gen_random_uuid(), $1, $2, $3, true, $4, 'x', 'manual', $5, now() - $6::interval)`,
        [target.signupId, participantId, target.organizationId, phone, status, age],
      );
    await leftover(participantIds[0]!, phones[0]!, 'claimed', '1 hour');
    await leftover(participantIds[1]!, phones[1]!, 'sending', '1 hour');
    await leftover(participantIds[2]!, phones[2]!, 'claimed', '1 minute');
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 1, sent: 1, failed: 0 });
    expect(textsTo(phones).map((m) => m.to)).toEqual([phones[0]]);
  });

  it('does not text a number that opted out after the pass claimed it', async () => {
    const { target, phones } = await seed({ phones: [newPhone()] });
    const passes = app.app.get(PassesRepository);
    const [claim] = await db.transaction((manager) =>
      passes.candidates(manager, target.signupId).then((candidates) =>
        passes.claim(
          manager,
          candidates.map((c) => ({
            ...c,
            id: randomUUID(),
            body: 'x',
            signupId: target.signupId,
            organizationId: target.organizationId,
            livemode: true,
            trigger: 'manual' as const,
          })),
        ),
      ),
    );
    await stack.bus.request('reminders.inbound', { from: phones[0]!, body: 'STOP' });
    expect(await passes.markSending(claim!.id)).toBe(false);
  });

  it('answers 502 when the provider is down, uses none of the ceiling, and leaves everyone eligible', async () => {
    const { target, phones } = await seed();
    twilio.mode('down');
    expect(await problemOf(pass.run(target, 'manual'))).toMatchObject({ code: 'upstream_unavailable', status: 502 });
    expect(await sentToday(target.organizationId)).toBe(0);
    twilio.mode('ok');
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 3, sent: 3, failed: 0 });
    expect(textsTo(phones)).toHaveLength(3);
  });

  it('answers 504 when every call timed out, and leaves everyone eligible', async () => {
    const { target } = await seed();
    twilio.mode('timeout');
    expect(await problemOf(pass.run(target, 'manual'))).toMatchObject({ code: 'upstream_unavailable', status: 504 });
    twilio.mode('ok');
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 3, sent: 3 });
  });

  it('stops calling a provider that keeps failing instead of trying everyone', async () => {
    const { target } = await seed({ phones: Array.from({ length: 20 }, newPhone) });
    twilio.mode('down');
    const before = twilio.requestCount;
    await problemOf(pass.run(target, 'manual'));
    expect(twilio.requestCount - before).toBeLessThan(20);
  });

  it('counts a refused number as failed and keeps it eligible; a number Twilio knows opted out is never texted again', async () => {
    const [good, invalid, unsubscribed] = [newPhone(), newPhone(), newPhone()];
    twilio.reject(invalid, 21211);
    twilio.reject(unsubscribed, 21610);
    const { target } = await seed({ phones: [good, invalid, unsubscribed] });
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 3, sent: 1, failed: 2 });
    expect(await sentToday(target.organizationId)).toBe(1);
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 1, sent: 0, failed: 1 });
  });

  it('honours STOP, START and HELP replies', async () => {
    const phone = newPhone();
    expect(await stack.bus.request('reminders.inbound', { from: phone, body: ' stop ' })).toEqual({ reply: null });
    const { target } = await seed({ phones: [phone, newPhone()] });
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 1, sent: 1, failed: 0 });
    expect(textsTo([phone])).toHaveLength(0);

    expect((await stack.bus.request('reminders.inbound', { from: phone, body: 'HELP' })).reply).toMatch(/Reply STOP to opt out/);
    expect((await stack.bus.request('reminders.inbound', { from: phone, body: 'Start' })).reply).toMatch(/again/);
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: 1, sent: 1, failed: 0 });
    expect(textsTo([phone])).toHaveLength(1);
    expect(await stack.bus.request('reminders.inbound', { from: phone, body: 'see you there' })).toEqual({ reply: null });
  });

  it('never calls the provider in sandbox: texts count as sent, use no ceiling, and are stored in the outbox', async () => {
    const { target, phones } = await seed({ livemode: false, phones: Array.from({ length: CEILING + 2 }, newPhone) });
    const before = twilio.requestCount;
    expect(await pass.run(target, 'manual')).toMatchObject({ eligible: CEILING + 2, sent: CEILING + 2, failed: 0 });
    expect(twilio.requestCount).toBe(before);
    expect(await sentToday(target.organizationId)).toBe(0);
    const outbox = await app.app.get(PassesRepository).outbox(target.signupId);
    expect(outbox.map((m) => m.phone).sort()).toEqual([...phones].sort());
    expect(outbox[0]).toMatchObject({ signupId: target.signupId, trigger: 'manual', body: expect.stringContaining('Winter potluck') });
  });

  it('counts each text handed to the provider by outcome in sms_messages_total', async () => {
    const smsCounts = async (): Promise<Record<string, number>> => {
      const text = await (await fetch(`${app.url}/metrics`)).text();
      const lines = text.matchAll(/^sms_messages_total\{outcome="(\w+)",app="reminders-service"\} (\d+)$/gm);
      return Object.fromEntries([...lines].map(([, outcome, count]) => [outcome!, Number(count)]));
    };
    const before = await smsCounts();
    const [good, invalid] = [newPhone(), newPhone()];
    twilio.reject(invalid, 21211);
    const live = await seed({ phones: [good, invalid] });
    expect(await pass.run(live.target, 'manual')).toMatchObject({ sent: 1, failed: 1 });
    const sandbox = await seed({ livemode: false, phones: [newPhone(), newPhone()] });
    expect(await pass.run(sandbox.target, 'manual')).toMatchObject({ sent: 2, failed: 0 });
    const after = await smsCounts();
    const added = (outcome: string) => (after[outcome] ?? 0) - (before[outcome] ?? 0);
    expect(Object.fromEntries(['sent', 'rejected', 'sandbox', 'timeout', 'unavailable', 'opted_out'].map((o) => [o, added(o)]))).toEqual({
      sent: 1,
      rejected: 1,
      sandbox: 2,
      timeout: 0,
      unavailable: 0,
      opted_out: 0,
    });
  });

  it('greets by the first name only, without the links, email addresses and phone numbers participants wrote, in either pass', async () => {
    const [linked, mixed, numbered, automatic] = [newPhone(), newPhone(), newPhone(), newPhone()];
    const manual = await seed({
      phones: [linked, mixed, numbered],
      names: ['evil.example/win', 'Ana www.evil.example', '+1 900 234 5678 ana@evil.example'],
    });
    await pass.run(manual.target, 'manual');
    await pass.run((await seed({ phones: [automatic], names: ['http://x Bo'] })).target, 'automatic');
    const bodyTo = (phone: string) => textsTo([phone])[0]!.body;
    expect(bodyTo(linked)).toBe(
      `Hi there, a reminder: Winter potluck is on Sat, Dec 5, 2026, 5:00 PM UTC. Details: ${manual.target.publicUrl} Reply STOP to opt out.`,
    );
    expect(bodyTo(mixed)).toMatch(/^Hi Ana, a reminder: Winter potluck is on /);
    expect(bodyTo(numbered)).toMatch(/^Hi there, a reminder: Winter potluck is on /);
    expect(bodyTo(automatic)).toMatch(/^Hi Bo, a reminder: Winter potluck is on /);
    for (const phone of [mixed, numbered, automatic]) expect(bodyTo(phone)).not.toMatch(/evil|http:\/\/x|900|@/);
  });

  describe('the SMS number policy', () => {
    const PREMIUM_RATE = '+19002345678';
    const TOLL_FREE = '+18002345678';
    const MOBILE_FR = '+33612345678';

    it('counts premium-rate and toll-free numbers as not eligible, with the reason, and texts the mobiles', async () => {
      const mobiles = [newPhone(), newPhone()];
      const { target } = await seed({ phones: [...mobiles, PREMIUM_RATE, TOLL_FREE] });
      const before = twilio.requestCount;
      expect(await pass.run(target, 'manual')).toEqual({
        eligible: 2,
        sent: 2,
        failed: 0,
        notEligible: [{ reason: 'not_mobile', count: 2 }],
        complete: true,
      });
      expect(twilio.requestCount - before).toBe(2);
      expect(textsTo(mobiles)).toHaveLength(2);
      expect(await sentToday(target.organizationId)).toBe(2);
      expect(await pass.run(target, 'manual')).toEqual({
        eligible: 0,
        sent: 0,
        failed: 0,
        notEligible: [{ reason: 'not_mobile', count: 2 }],
        complete: true,
      });
    });

    it('leaves them out of the automatic pass too, which is then done', async () => {
      const mobile = newPhone();
      const { target } = await seed({ phones: [PREMIUM_RATE, mobile] });
      expect(await pass.run(target, 'automatic')).toEqual({
        eligible: 1,
        sent: 1,
        failed: 0,
        notEligible: [{ reason: 'not_mobile', count: 1 }],
        complete: true,
      });
      expect(textsTo([mobile])).toHaveLength(1);
    });

    it('texts only the countries of SMS_ALLOWED_COUNTRIES when it is set, on every replica that has it', async () => {
      const northAmerica = await stack.boot(remindersServiceApp, appEnv({ SMS_ALLOWED_COUNTRIES: 'us,CA' }));
      const us = newPhone();
      const { target } = await seed({ phones: [us, MOBILE_FR, PREMIUM_RATE] });
      expect(await smsOnly(northAmerica).run(target, 'manual')).toEqual({
        eligible: 1,
        sent: 1,
        failed: 0,
        notEligible: [
          { reason: 'not_mobile', count: 1 },
          { reason: 'country_not_allowed', count: 1 },
        ],
        complete: true,
      });
      expect(textsTo([us, MOBILE_FR, PREMIUM_RATE]).map((m) => m.to)).toEqual([us]);
    });

    it('refuses to boot on a country list that is not one, naming the variable', async () => {
      await expect(stack.boot(remindersServiceApp, appEnv({ SMS_ALLOWED_COUNTRIES: 'US,USA' }))).rejects.toThrow(
        /SMS_ALLOWED_COUNTRIES must be comma-separated ISO 3166 alpha-2 country codes/,
      );
    });
  });

  it('answers 402 upgrade_required (feature) on the free tier', async () => {
    const { target } = await seed({ tier: 'free' });
    const problem = await problemOf(pass.run(target, 'manual'));
    expect(problem).toMatchObject({
      code: 'upgrade_required',
      status: 402,
      problemCause: { kind: 'feature', currentTier: 'free', requiredTier: 'pro' },
    });
  });
});
