import ICAL from 'ical.js';
import type { Browser } from 'playwright-core';
import type { CalendarFeedCreatedView, CalendarFeedView, RegistrationResultView, RegistrationView, SlotView } from '#libs/contracts';
import { accessibilityViolations, launchChromium } from '#libs/testing';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

interface Calendar {
  status: number;
  headers: Headers;
  text: string;
  method: string;
  name: string;
  events: ICAL.Event[];
}

/** GETs a calendar and reads it with a real parser (ical.js), its zones registered. */
async function calendarAt(url: string): Promise<Calendar> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, headers: res.headers, text, method: '', name: '', events: [] };
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  return {
    status: res.status,
    headers: res.headers,
    text,
    method: String(calendar.getFirstPropertyValue('method')),
    name: String(calendar.getFirstPropertyValue('name')),
    events: calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent)),
  };
}

const statusOf = (event: ICAL.Event) => event.component.getFirstPropertyValue('status');
/** SEQUENCE counts whole seconds: a change made in a later second than the version read before it. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));
const startOf = (event: ICAL.Event) => event.startDate.toJSDate().toISOString();

/** A problem+json 404 (not a page: calendar clients read these). */
async function expectNotFound(url: string): Promise<void> {
  const res = await fetch(url);
  const body = (await res.json()) as { code: string };
  expect({ url, status: res.status, type: res.headers.get('content-type'), code: body.code }).toEqual({
    url,
    status: 404,
    type: expect.stringMatching(/^application\/problem\+json/),
    code: 'not_found',
  });
}

describe('calendars', () => {
  let tenant: Tenant;
  let origin: string;
  let host: string;

  beforeAll(async () => {
    tenant = await newTenant('pro');
    origin = stackInfo().gatewayUrl;
    host = new URL(stackInfo().baseUrl).hostname;
  });

  describe('GET /s/{slug}/calendar.ics', () => {
    it("answers a published signup's slots as events with stable UIDs, as a public, cacheable text/calendar download", async () => {
      const { signup, slots } = await newSignup(tenant.key, {
        fields: { title: 'Street party', location: 'Main Street, corner; east' },
        slots: [
          { title: 'Setup', startTime: '2027-06-01T15:00:00Z', endTime: '2027-06-01T17:00:00Z', capacity: 3 },
          { title: 'Cleanup', capacity: 3 },
        ],
      });
      const calendar = await calendarAt(`${origin}/s/${signup.slug}/calendar.ics`);
      expect(calendar.status).toBe(200);
      expect(calendar.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      expect(calendar.headers.get('content-disposition')).toBe(`attachment; filename="${signup.slug}.ics"`);
      expect(calendar.headers.get('cache-control')).toBe('public, max-age=300');
      expect(calendar.headers.get('ratelimit-policy')).toContain('anonymous-reads');
      expect(calendar.method).toBe('PUBLISH');
      expect(calendar.name).toBe('Street party');
      expect(calendar.events.map((e) => e.uid)).toEqual(slots.map((slot) => `slot-${slot.id}@${host}`));
      const [setup, cleanup] = calendar.events;
      expect(setup!.summary).toBe('Street party: Setup');
      expect(setup!.location).toBe('Main Street, corner; east');
      expect(setup!.component.getFirstPropertyValue('url')).toBe(signup.publicUrl);
      expect([startOf(setup!), setup!.endDate.toJSDate().toISOString()]).toEqual(['2027-06-01T15:00:00.000Z', '2027-06-01T17:00:00.000Z']);
      // A slot without a time is at the signup's date; the signups are in UTC (written with Z, no VTIMEZONE).
      expect(startOf(cleanup!)).toBe(new Date(signup.eventDate).toISOString());
      expect(calendar.text).toContain('DTSTART:20270601T150000Z');
      // The same by id.
      expect((await calendarAt(`${origin}/s/${signup.id.toUpperCase()}/calendar.ics`)).events.map((e) => e.uid)).toEqual(
        calendar.events.map((e) => e.uid),
      );
    });

    it("answers one event at a signup's date when it has no slot, and a closed signup's too", async () => {
      const { signup } = await newSignup(tenant.key);
      await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' });
      const calendar = await calendarAt(`${origin}/s/${signup.slug}/calendar.ics`);
      expect(calendar.events.map((e) => [e.uid, e.summary, startOf(e)])).toEqual([
        [`signup-${signup.id}@${host}`, signup.title, new Date(signup.eventDate).toISOString()],
      ]);
    });

    it('updates a slot whose time changed under its UID with a larger SEQUENCE', async () => {
      const { signup, slots } = await newSignup(tenant.key, {
        slots: [{ title: 'Setup', startTime: '2027-06-01T15:00:00Z', capacity: 3 }],
      });
      const before = (await calendarAt(`${origin}/s/${signup.slug}/calendar.ics`)).events[0]!;
      await nextSecond();
      const moved = await call<SlotView>(`/signups/${signup.id}/slots/${slots[0]!.id}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { startTime: '2027-06-01T14:00:00Z' },
      });
      expect(moved.status).toBe(200);
      const after = (await calendarAt(`${origin}/s/${signup.slug}/calendar.ics`)).events[0]!;
      expect(after.uid).toBe(before.uid);
      expect(after.sequence).toBeGreaterThan(before.sequence);
      expect(startOf(after)).toBe('2027-06-01T14:00:00.000Z');
    });

    it('answers a draft, an unknown and a malformed slug with a not_found problem', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      for (const slug of [signup.slug, 'no-such-signup', 'Has-Upper', 'a'.repeat(61), '%00']) {
        await expectNotFound(`${origin}/s/${slug}/calendar.ics`);
      }
    });
  });

  describe("a participant's own calendar at its read-only address", () => {
    /** The registration's calendarUrl, read with its confirmation token. */
    const calendarUrlOf = async (token: string) => (await call<RegistrationView>(`/registrations/${token}`)).body.calendarUrl;

    it("answers the participant's own slots under UIDs of their own at /calendars/pcal_….ics, not stored nor sent as a referrer", async () => {
      const { signup, slots } = await newSignup(tenant.key, {
        slots: [
          { title: 'Setup', startTime: '2027-06-01T15:00:00Z', capacity: 3 },
          { title: 'Cleanup', startTime: '2027-06-01T20:00:00Z', capacity: 3 },
        ],
      });
      const registered = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, {
        body: person([{ type: 'slot', id: slots[1]!.id }]),
      });
      const participantId = registered.body.confirmed[0]!.participantId;
      const token = registered.body.confirmationToken!;
      const url = await calendarUrlOf(token);
      expect(url).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/calendars/pcal_[0-9A-Za-z_-]{54}\\.ics$`));
      expect(url).not.toContain(token.slice('cnf_'.length));
      const calendar = await calendarAt(url);
      expect(calendar.status).toBe(200);
      expect(calendar.headers.get('cache-control')).toBe('no-store');
      expect(calendar.headers.get('referrer-policy')).toBe('no-referrer');
      expect(calendar.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      expect(calendar.events.map((e) => [e.uid, e.summary, statusOf(e)])).toEqual([
        [`participant-${participantId}-slot-${slots[1]!.id}@${host}`, `${signup.title}: Cleanup`, 'CONFIRMED'],
      ]);
      expect(calendar.text).not.toContain(token);
    });

    it('cancels the events of a cancelled registration with a larger SEQUENCE, so a subscribed calendar drops them', async () => {
      const { signup, slots } = await newSignup(tenant.key, {
        slots: [{ title: 'Setup', startTime: '2027-06-01T15:00:00Z', capacity: 3 }],
      });
      const token = (
        await call<RegistrationResultView>(`/signups/${signup.id}/participants`, { body: person([{ type: 'slot', id: slots[0]!.id }]) })
      ).body.confirmationToken!;
      const url = await calendarUrlOf(token);
      const before = (await calendarAt(url)).events[0]!;
      await nextSecond();
      expect((await call(`/registrations/${token}`, { method: 'DELETE' })).status).toBe(200);
      const after = (await calendarAt(url)).events;
      expect(after.map((e) => [e.uid, statusOf(e)])).toEqual([[before.uid, 'CANCELLED']]);
      expect(after[0]!.sequence).toBeGreaterThan(before.sequence);
    });

    it("answers one event at the signup's date for a participant who brings only items", async () => {
      const { signup, items } = await newSignup(tenant.key, { items: [{ name: 'Lemonade', quantityNeeded: 4 }] });
      const registered = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, {
        body: person([{ type: 'item', id: items[0]!.id, quantity: 2 }]),
      });
      const [only, ...rest] = (await calendarAt(await calendarUrlOf(registered.body.confirmationToken!))).events;
      expect(rest).toEqual([]);
      expect(only!.uid).toBe(`participant-${registered.body.confirmed[0]!.participantId}@${host}`);
      expect(startOf(only!)).toBe(new Date(signup.eventDate).toISOString());
      expect(only!.description).toContain('You bring: Lemonade (2)');
    });

    it('takes no confirmation token: the old /r/{token}/calendar.ics is gone and /calendars/{token}.ics is not found', async () => {
      const { signup } = await newSignup(tenant.key);
      const token = (await call<RegistrationResultView>(`/signups/${signup.id}/participants`, { body: person([]) })).body
        .confirmationToken!;
      const old = await fetch(`${origin}/r/${token}/calendar.ics`);
      expect(old.status).toBe(404);
      expect(old.headers.get('content-type')).not.toMatch(/^text\/calendar/);
      expect(await old.text()).not.toContain('BEGIN:VCALENDAR');
      await expectNotFound(`${origin}/calendars/${token}.ics`);
    });

    it('opens neither the registration page nor the registration API, and changes nothing', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'Setup', capacity: 3 }] });
      const token = (
        await call<RegistrationResultView>(`/signups/${signup.id}/participants`, { body: person([{ type: 'slot', id: slots[0]!.id }]) })
      ).body.confirmationToken!;
      const before = (await call<RegistrationView>(`/registrations/${token}`)).body;
      const calendarToken = /\/calendars\/(pcal_[0-9A-Za-z_-]{54})\.ics$/.exec(before.calendarUrl)![1]!;
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const attempts: [string, RequestInit][] = [
        [`${origin}/r/${calendarToken}`, {}],
        [`${origin}/r/${calendarToken}`, { method: 'POST', headers: form, body: 'name=Taken+over' }],
        [`${origin}/r/${calendarToken}/cancel`, { method: 'POST', headers: form, body: '' }],
        [`${stackInfo().baseUrl}/registrations/${calendarToken}`, {}],
        [
          `${stackInfo().baseUrl}/registrations/${calendarToken}`,
          { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":"Taken over"}' },
        ],
        [`${stackInfo().baseUrl}/registrations/${calendarToken}`, { method: 'DELETE' }],
      ];
      for (const [url, init] of attempts) {
        const res = await fetch(url, { ...init, redirect: 'manual' });
        expect({ url, method: init.method ?? 'GET', status: res.status }).toEqual({ url, method: init.method ?? 'GET', status: 404 });
      }
      expect((await call<RegistrationView>(`/registrations/${token}`)).body).toEqual(before);
    });

    it('answers an unknown, forged or malformed read-only token with a not_found problem, still not stored', async () => {
      for (const file of [`pcal_${'A'.repeat(54)}.ics`, `pcal_${'A'.repeat(54)}`, 'pcal_short.ics', `pcal_${'A'.repeat(53)}!.ics`]) {
        await expectNotFound(`${origin}/calendars/${file}`);
        expect((await fetch(`${origin}/calendars/${file}`)).headers.get('cache-control')).toBe('no-store');
      }
    });
  });

  describe("an organization's feed", () => {
    const feed = (key: string) => call<CalendarFeedView>('/calendar-feed', { key });
    const createFeed = (key: string) => call<CalendarFeedCreatedView>('/calendar-feed', { key, method: 'POST' });

    it('is made with a secret URL shown once, read by calendar clients, rotated (the old URL dies) and revoked', async () => {
      const owner = await newTenant('pro');
      expect((await feed(owner.key)).body).toEqual({ exists: false, createdAt: null, livemode: false });

      const created = await createFeed(owner.key);
      expect(created.status).toBe(201);
      expect(created.headers.get('cache-control')).toBe('no-store');
      expect(created.body.url).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/calendars/cal_[0-9A-Za-z]{32}\\.ics$`));
      const state = await feed(owner.key);
      expect(state.body).toEqual({ exists: true, createdAt: created.body.createdAt, livemode: false });
      expect(JSON.stringify(state.body)).not.toContain('cal_');

      const { signup, slots } = await newSignup(owner.key, { slots: [{ title: 'Setup', startTime: '2027-06-01T15:00:00Z', capacity: 2 }] });
      const plain = await newSignup(owner.key);
      await newSignup(owner.key, { publish: false });
      const calendar = await calendarAt(created.body.url);
      expect(calendar.status).toBe(200);
      expect(calendar.headers.get('cache-control')).toBe('no-store');
      expect(calendar.headers.get('referrer-policy')).toBe('no-referrer');
      expect(calendar.name).toBe('Signups (sandbox)');
      expect(calendar.events.map((e) => e.uid).sort()).toEqual(
        [`slot-${slots[0]!.id}@${host}`, `signup-${plain.signup.id}@${host}`].sort(),
      );
      expect(calendar.events.find((e) => e.uid.startsWith('slot-'))!.summary).toBe(`${signup.title}: Setup`);

      const rotated = await createFeed(owner.key);
      expect(rotated.body.url).not.toBe(created.body.url);
      await expectNotFound(created.body.url);
      expect((await calendarAt(rotated.body.url)).events).toHaveLength(2);

      const revoked = await call('/calendar-feed', { key: owner.key, method: 'DELETE' });
      expect(revoked.status).toBe(204);
      await expectNotFound(rotated.body.url);
      expect((await feed(owner.key)).body.exists).toBe(false);
      expect((await call('/calendar-feed', { key: owner.key, method: 'DELETE' })).status).toBe(204);
    });

    it("keeps a live feed apart from the sandbox's, each listing its own mode's signups", async () => {
      const owner = await newTenant('pro');
      const live = (await owner.newKey({ mode: 'live' })).key;
      const sandboxUrl = (await createFeed(owner.key)).body.url;
      const liveFeed = await createFeed(live);
      expect(liveFeed.body.livemode).toBe(true);
      const liveSignup = await newSignup(live);
      expect((await calendarAt(liveFeed.body.url)).events.map((e) => e.uid)).toEqual([`signup-${liveSignup.signup.id}@${host}`]);
      expect((await calendarAt(liveFeed.body.url)).name).toBe('Signups');
      expect((await calendarAt(sandboxUrl)).events).toEqual([]);
    });

    it('needs signups:read to read its state and signups:write to make or revoke it', async () => {
      const owner = await newTenant('pro');
      const reader = (await owner.newKey({ scopes: 'signups:read' })).key;
      expect((await feed(reader)).status).toBe(200);
      for (const method of ['POST', 'DELETE']) {
        const res = await call('/calendar-feed', { key: reader, method });
        expect({ method, status: res.status, code: res.body.code }).toEqual({ method, status: 403, code: 'scope_required' });
      }
      expect((await call('/calendar-feed')).status).toBe(401);
    });

    it('answers an unknown, malformed or revoked feed address with a not_found problem', async () => {
      for (const file of [`cal_${'a'.repeat(32)}.ics`, `cal_${'a'.repeat(32)}`, 'cal_short.ics', `cnf_${'a'.repeat(32)}.ics`, '.ics']) {
        await expectNotFound(`${origin}/calendars/${file}`);
      }
    });
  });

  describe('add-to-calendar links on the confirmation page', () => {
    let browser: Browser;

    beforeAll(async () => {
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
    });

    it('links each held slot to Google Calendar and Outlook in a new tab and to the .ics file, axe- and CSP-clean', async () => {
      const { signup } = await newSignup(tenant.key, {
        fields: { title: 'Beach <b>cleanup</b> & picnic', location: 'North beach' },
        slots: [{ title: 'Morning', startTime: '2027-06-01T08:00:00Z', endTime: '2027-06-01T10:00:00Z', capacity: 5 }],
      });
      // Scripts on, as axe needs them (the page has none, and its CSP would refuse any).
      const page = await browser.newPage();
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
      try {
        await page.goto(`${origin}/s/${signup.slug}`);
        await page.getByLabel('Name', { exact: true }).fill('Ana Lima');
        await page.getByLabel('Email', { exact: true }).fill('ana.calendar@example.com');
        await page.getByLabel('Morning').fill('1');
        await page.getByRole('button', { name: 'Sign up' }).click();
        await page.waitForURL(/\/r\/cnf_[0-9A-Za-z]{32}\?registered=1$/);
        const token = /\/r\/(cnf_[0-9A-Za-z]{32})/.exec(page.url())![1]!;

        const section = page.getByRole('region', { name: 'Add to your calendar' });
        const google = section.getByRole('link', { name: 'Google Calendar' });
        await expect(google.getAttribute('aria-describedby')).resolves.toBe('calendar-event-0 calendar-new-tab');
        await expect(section.locator('#calendar-event-0').textContent()).resolves.toMatch(
          /^Beach <b>cleanup<\/b> & picnic: Morning, Tue, Jun 1, 2027, 8:00 AM UTC$/,
        );
        expect([await google.getAttribute('target'), await google.getAttribute('rel')]).toEqual(['_blank', 'noopener']);
        const googleUrl = new URL((await google.getAttribute('href'))!);
        expect(googleUrl.origin + googleUrl.pathname).toBe('https://calendar.google.com/calendar/render');
        expect(Object.fromEntries(googleUrl.searchParams)).toMatchObject({
          action: 'TEMPLATE',
          text: 'Beach <b>cleanup</b> & picnic: Morning',
          dates: '20270601T080000Z/20270601T100000Z',
          location: 'North beach',
        });
        const outlook = section.getByRole('link', { name: 'Outlook' });
        expect([await outlook.getAttribute('target'), await outlook.getAttribute('rel')]).toEqual(['_blank', 'noopener']);
        const outlookUrl = new URL((await outlook.getAttribute('href'))!);
        expect(outlookUrl.origin + outlookUrl.pathname).toBe('https://outlook.live.com/calendar/0/deeplink/compose');
        expect(Object.fromEntries(outlookUrl.searchParams)).toMatchObject({
          subject: 'Beach <b>cleanup</b> & picnic: Morning',
          startdt: '2027-06-01T08:00:00.000Z',
          enddt: '2027-06-01T10:00:00.000Z',
        });

        // The file's address is the read-only one, which a calendar that subscribes may keep: never the edit link's token.
        const file = section.getByRole('link', { name: 'Calendar file (.ics)' });
        const href = (await file.getAttribute('href'))!;
        expect(href).toBe((await call<RegistrationView>(`/registrations/${token}`)).body.calendarUrl);
        expect(href).not.toContain(token.slice('cnf_'.length));
        const calendar = await calendarAt(href);
        expect(calendar.events.map((e) => e.summary)).toEqual(['Beach <b>cleanup</b> & picnic: Morning']);

        expect(await accessibilityViolations(page)).toEqual([]);
        await page.goto(`${origin}/r/${token}`);
        await expect(section.getByRole('link', { name: 'Google Calendar' }).count()).resolves.toBe(1);
        expect(await accessibilityViolations(page)).toEqual([]);
        expect(blocked).toEqual([]);
      } finally {
        await page.close();
      }
    });
  });
});
