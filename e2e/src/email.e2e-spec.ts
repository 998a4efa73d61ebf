import ICAL from 'ical.js';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import type { EmailListView, RegistrationResultView, RegistrationView, ReminderPassView, SlotView } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import {
  accessibilityViolations,
  eventually,
  type FakeSmtp,
  launchChromium,
  type ServicesStack,
  startFakeSmtp,
  startServicesStack,
} from '#libs/testing';
import { call, newTenant, request, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

const ZONE = 'America/New_York';
const SLOT = { title: 'Setup', capacity: 1, startTime: '2027-06-01T21:00:00.000Z', endTime: '2027-06-01T23:00:00.000Z' };

/** The VEVENTs of an invitation, parsed by ical.js, with the calendar's METHOD. */
function parseInvite(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return {
    method: calendar.getFirstPropertyValue('method'),
    zones: calendar.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid')),
    events: calendar.getAllSubcomponents('vevent').map((vevent) => {
      const event = new ICAL.Event(vevent);
      return {
        uid: event.uid,
        sequence: event.sequence,
        summary: event.summary,
        start: event.startDate.toJSDate().toISOString(),
        zone: vevent.getFirstProperty('dtstart')?.getParameter('tzid'),
        status: vevent.getFirstPropertyValue('status'),
      };
    }),
  };
}

/** The link in a text part that starts with `prefix`. */
function linkIn(text: string, prefix: string): string {
  const link = text.match(/https?:\/\/\S+/g)?.find((url) => url.startsWith(prefix));
  if (!link) throw new Error(`no link to ${prefix} in:\n${text}`);
  return link;
}

describe('participant email (stored: the stack has no SMTP server)', () => {
  let tenant: Tenant;
  let browser: Browser;
  const { gatewayUrl } = stackInfo();
  const host = new URL(stackInfo().baseUrl).hostname;

  beforeAll(async () => {
    tenant = await newTenant('pro');
    browser = await launchChromium();
  });

  afterAll(() => browser.close());

  const emailsOf = async (signupId: string) => (await call<EmailListView>(`/signups/${signupId}/emails`, { key: tenant.key })).body.data;
  /** The emails of one participant of a sandbox signup, oldest first, once there are `count`. */
  const mailTo = (signupId: string, participantId: string, count: number) =>
    eventually(async () => {
      const mails = (await emailsOf(signupId)).filter((email) => email.participantId === participantId).reverse();
      expect(mails.map((mail) => mail.kind)).toHaveLength(count);
      return mails;
    }, 15_000);

  const shift = async () => {
    const { signup, slots } = await newSignup(tenant.key, {
      fields: {
        title: 'Harvest <b>supper</b>\r\nBcc: victim@example.com',
        timeZone: ZONE,
        waitlist: { enabled: true, mode: 'offer', offerMinutes: 60 },
      },
      slots: [SLOT],
    });
    return { signup, slot: slots[0]! };
  };
  const join = async (signupId: string, slot: SlotView, name = 'Ada Lovelace') => {
    const res = await call<RegistrationResultView>(`/signups/${signupId}/participants`, {
      body: person([{ type: 'slot', id: slot.id }], { name }),
    });
    expect(res.status).toBe(201);
    const token = res.body.confirmationToken!;
    const participant = (await call<RegistrationView>(`/registrations/${token}`)).body.participant;
    return { token, participantId: participant.id };
  };

  it('confirms a registration with a readable summary in the signup’s zone, the edit link and an invitation', async () => {
    const { signup, slot } = await shift();
    const ada = await join(signup.id, slot);
    const [confirmation] = await mailTo(signup.id, ada.participantId, 1);
    expect(confirmation).toMatchObject({ kind: 'confirmation', status: 'stored', to: expect.stringMatching(/@example\.com$/) });
    expect(confirmation!.from.name).toBe(tenant.organization.name);
    expect(confirmation!.subject).not.toMatch(/[\r\n]/);
    expect(confirmation!.html).not.toContain('<b>supper</b>');
    expect(confirmation!.text).toContain('5:00');
    expect(confirmation!.text).toMatch(/EDT/);
    expect(linkIn(confirmation!.text, `${gatewayUrl}/r/`)).toBe(`${gatewayUrl}/r/${ada.token}`);
    expect(confirmation!.calendar!.ics).not.toContain(ada.token);
    const invite = parseInvite(confirmation!.calendar!.ics);
    expect(invite.method).toBe('REQUEST');
    expect(invite.zones).toContain(ZONE);
    expect(invite.events).toEqual([
      expect.objectContaining({ uid: `participant-${ada.participantId}-slot-${slot.id}@${host}`, start: SLOT.startTime, zone: ZONE }),
    ]);
  });

  it('tells the next in line they wait, offers them the place a cancellation frees, and takes the cancelled event out of the calendar', async () => {
    const { signup, slot } = await shift();
    const ada = await join(signup.id, slot);
    const grace = await join(signup.id, slot, 'Grace Hopper');
    const [waitlisted] = await mailTo(signup.id, grace.participantId, 1);
    expect(waitlisted!.kind).toBe('waitlisted');
    const [confirmation] = await mailTo(signup.id, ada.participantId, 1);

    expect((await call(`/registrations/${ada.token}`, { method: 'DELETE' })).status).toBe(200);
    const [, cancellation] = await mailTo(signup.id, ada.participantId, 2);
    expect(cancellation!.kind).toBe('cancellation');
    const cancelled = parseInvite(cancellation!.calendar!.ics);
    const confirmed = parseInvite(confirmation!.calendar!.ics);
    expect(cancelled.method).toBe('CANCEL');
    expect(cancelled.events[0]!.uid).toBe(confirmed.events[0]!.uid);
    expect(cancelled.events[0]!.sequence).toBeGreaterThan(confirmed.events[0]!.sequence);

    const [, offer] = await mailTo(signup.id, grace.participantId, 2);
    expect(offer!.kind).toBe('offer');
    const page = await browser.newPage();
    try {
      // Follow the accept link from the email's HTML part, as the person would, and accept on the page it opens.
      await page.goto(`${gatewayUrl}/mailbox/${offer!.id}/html`);
      const accept = page.locator(`a[href^="${gatewayUrl}/r/${grace.token}"]`).first();
      await Promise.all([page.waitForURL(`${gatewayUrl}/r/${grace.token}**`), accept.click()]);
      await page
        .getByRole('button', { name: /accept/i })
        .first()
        .click();
      await page.waitForLoadState();
      expect(await page.textContent('body')).toMatch(/accepted the place/i);
    } finally {
      await page.close();
    }
    const [, , promoted] = await mailTo(signup.id, grace.participantId, 3);
    expect(promoted!.kind).toBe('promoted');
    expect(parseInvite(promoted!.calendar!.ics).method).toBe('REQUEST');
  });

  it('mails a change, and nothing for an edit the participant cannot see', async () => {
    const { signup, slot } = await shift();
    const ada = await join(signup.id, slot);
    await mailTo(signup.id, ada.participantId, 1);
    expect((await call(`/registrations/${ada.token}`, { method: 'PATCH', body: { name: 'Ada King' } })).status).toBe(200);
    const [, change] = await mailTo(signup.id, ada.participantId, 2);
    expect(change!.kind).toBe('change');
    expect((await call(`/registrations/${ada.token}`, { method: 'PATCH', body: { phone: '+14155550123' } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await mailTo(signup.id, ada.participantId, 2)).toHaveLength(2);
  });

  it('mails a change with an updated invitation when the organizer moves the signup', async () => {
    const { signup } = await newSignup(tenant.key, { fields: { eventDate: '2027-06-01T18:00:00.000Z', timeZone: ZONE } });
    const registered = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, { body: person() });
    expect(registered.status).toBe(201);
    const participantId = (await call<RegistrationView>(`/registrations/${registered.body.confirmationToken!}`)).body.participant.id;
    const [confirmation] = await mailTo(signup.id, participantId, 1);
    // SEQUENCE counts whole seconds: a move within the confirmation's second would share its number.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));

    const moved = '2027-06-08T18:00:00.000Z';
    expect((await call(`/signups/${signup.id}`, { key: tenant.key, method: 'PATCH', body: { eventDate: moved } })).status).toBe(200);
    const [, change] = await mailTo(signup.id, participantId, 2);
    expect(change).toMatchObject({ kind: 'change', status: 'stored' });
    const [before] = parseInvite(confirmation!.calendar!.ics).events;
    const after = parseInvite(change!.calendar!.ics);
    expect(after.method).toBe('REQUEST');
    expect(after.events).toEqual([expect.objectContaining({ uid: before!.uid, start: moved })]);
    expect(after.events[0]!.sequence).toBeGreaterThan(before!.sequence);
  });

  it('shows stored mail in the mailbox, accessibly, with the edit link working', async () => {
    const { signup, slot } = await shift();
    const ada = await join(signup.id, slot);
    const [confirmation] = await mailTo(signup.id, ada.participantId, 1);
    const page = await browser.newPage();
    try {
      await page.goto(`${gatewayUrl}/mailbox`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.goto(`${gatewayUrl}/mailbox/${confirmation!.id}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await Promise.all([
        page.waitForURL(`${gatewayUrl}/r/${ada.token}`),
        page.locator(`a[href="${gatewayUrl}/r/${ada.token}"]`).first().click(),
      ]);
      expect(await page.textContent('h1')).toBe('Your registration');
    } finally {
      await page.close();
    }
    const html = await fetch(`${gatewayUrl}/mailbox/${confirmation!.id}/html`);
    expect(html.headers.get('content-security-policy')).toMatch(/^sandbox /);
    expect(await html.text()).toBe(confirmation!.html);
    const ics = await fetch(`${gatewayUrl}/mailbox/${confirmation!.id}/invite.ics`);
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(await ics.text()).toBe(confirmation!.calendar!.ics);
  });

  it('lists no email of a live signup, and refuses another organization’s signup', async () => {
    const live = await tenant.newKey({ mode: 'live' });
    const { signup } = await newSignup(live.key);
    expect((await call<EmailListView>(`/signups/${signup.id}/emails`, { key: live.key })).body.data).toEqual([]);
    const other = await newTenant('pro');
    expect((await call(`/signups/${signup.id}/emails`, { key: other.key })).status).toBe(404);
  });
});

describe('participant email over SMTP (a stack of its own)', () => {
  let smtp: FakeSmtp;
  let stack: ServicesStack;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    stack = await startServicesStack({
      label: 'email',
      // One live email per pro organization and day (the second registration's confirmation is over the ceiling); three on org.
      env: {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'no-reply@signups.example.test',
        TIER_LIMITS: JSON.stringify({ pro: { emailsPerDay: 1 }, org: { emailsPerDay: 3 } }),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await smtp?.close();
  });

  const admin = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await request<T>(`${stack.info.authUrl}/admin/${path}`, {
      body,
      headers: { authorization: `Bearer ${stack.info.adminToken}` },
    });
    expect({ path, status: res.status, body: res.status < 300 ? 'ok' : res.body }).toEqual({
      path,
      status: expect.any(Number),
      body: 'ok',
    });
    return res.body;
  };

  /** A published signup of a new organization (with its owner), and the organization's live key. */
  const liveSignup = async (organization: { name: string; tier: string }, title: string, slots: (typeof SLOT)[] = []) => {
    const { id } = await admin<{ id: string }>('organizations', organization);
    await admin('users', { email: `owner-${id.toLowerCase()}@example.com`, password: 'correct horse battery', organizationId: id });
    const { key } = await admin<{ key: string }>('api-keys', { organizationId: id, mode: 'live' });
    const base = stack.info.baseUrl;
    const created = await request<{ id: string }>(`${base}/signups`, {
      key,
      body: { title, eventDate: '2027-06-01T18:00:00.000Z', timeZone: ZONE },
    });
    const signupId = created.body.id;
    const added =
      slots.length > 0
        ? (await request<{ data: SlotView[] }>(`${base}/signups/${signupId}/slots`, { key, body: { slots } })).body.data
        : [];
    await request(`${base}/signups/${signupId}/publish`, { key, method: 'POST' });
    return { key, signupId, slots: added };
  };

  it('sends the confirmation of a live registration: both parts, the organization as sender, the invitation, a working edit link', async () => {
    const { signupId, slots } = await liveSignup({ name: 'PayPal <service@paypal.example>', tier: 'pro' }, 'Winter potluck', [SLOT]);
    const base = stack.info.baseUrl;
    const who = person([{ type: 'slot', id: slots[0]!.id }]);
    const registered = await request<RegistrationResultView>(`${base}/signups/${signupId}/participants`, { body: who });
    expect(registered.status).toBe(201);

    const [mail] = await eventually(() => {
      const found = smtp.messages.filter((m) => m.to.includes(who.email));
      expect(found).toHaveLength(1);
      return found;
    }, 20_000);
    const parsed = mail!.parsed;
    // An organization's name never passes for an address before ours.
    expect(parsed.from?.value).toEqual([{ name: 'PayPal service paypal.example', address: 'no-reply@signups.example.test' }]);
    expect(parsed.messageId).toMatch(/^<[0-9a-f-]{36}@signups\.example\.test>$/);
    expect(parsed.subject).toContain('Winter potluck');
    expect(parsed.text).toContain(`/r/${registered.body.confirmationToken}`);
    expect(parsed.html).toContain(`/r/${registered.body.confirmationToken}`);
    const invite = parsed.attachments.find((a) => a.contentType.startsWith('text/calendar'));
    expect(parseInvite(invite!.content.toString()).method).toBe('REQUEST');
    const edit = await fetch(linkIn(parsed.text!, `${stack.info.gatewayUrl}/r/`));
    expect(edit.status).toBe(200);

    // Past the organization's ceiling of the day, a confirmation is kept suppressed and never sent.
    const second = person();
    expect((await request(`${base}/signups/${signupId}/participants`, { body: second })).status).toBe(201);
    const db = new pg.Client({ connectionString: stack.info.databaseUrl });
    await db.connect();
    try {
      await eventually(async () => {
        const { rows } = await db.query(`SELECT status FROM reminders.emails WHERE to_address = $1`, [second.email]);
        expect(rows).toEqual([{ status: 'suppressed' }]);
      }, 20_000);
    } finally {
      await db.end();
    }
    expect(smtp.messages.filter((m) => m.to.includes(second.email))).toEqual([]);
  });

  it('sends live email reminders up to what remains of the day, with one-click unsubscribe, then answers 429 for email alone', async () => {
    const { key, signupId } = await liveSignup({ name: 'Harbor Club', tier: 'org' }, 'Harbor cleanup');
    const base = stack.info.baseUrl;
    const people = [person(), person()];
    for (const who of people) expect((await request(`${base}/signups/${signupId}/participants`, { body: who })).status).toBe(201);
    // Their two confirmations leave one email of the day's three.
    await eventually(() => expect(smtp.messages.filter((m) => people.some((who) => m.to.includes(who.email)))).toHaveLength(2), 20_000);

    const send = (channel: string) =>
      request<ReminderPassView & ProblemBody>(`${base}/signups/${signupId}/reminders/send`, { key, body: { channel } });
    expect((await send('email')).body).toMatchObject({ eligible: 2, sent: 1, failed: 0 });
    const [reminder] = await eventually(() => {
      const found = smtp.messages.filter((m) => m.parsed.subject?.startsWith('Reminder: '));
      expect(found).toHaveLength(1);
      return found;
    }, 20_000);
    const headers = reminder!.raw
      .toString()
      .split('\r\n\r\n')[0]!
      .replace(/\r\n[ \t]+/g, ' ');
    expect(headers).toMatch(new RegExp(`^List-Unsubscribe: <${stack.info.gatewayUrl}/unsubscribe/[^>]+>$`, 'm'));
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);

    const refused = await send('email');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('daily_ceiling_exceeded');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Asked for both, the channel with room still runs; the full one reports who stays eligible.
    const both = await send('both');
    expect(both.status).toBe(200);
    expect(both.body.channels).toEqual({
      email: { eligible: 1, sent: 0, failed: 0, notEligible: [] },
      sms: { eligible: 0, sent: 0, failed: 0, notEligible: [] },
    });
  });
});
