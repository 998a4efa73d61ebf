import { CALENDAR_FEED_MAX_EVENTS, CALENDAR_FEED_TOKEN_PATTERN, type Principal } from '#libs/contracts';
import { type AppHarness, caller, daysFromNow, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_calendar_feeds');
});

afterAll(async () => {
  await h?.close();
});

const tokenOf = (url: string): string => /\/calendars\/(cal_[0-9A-Za-z]{32})\.ics$/.exec(url)![1]!;

async function createFeed(principal: Principal): Promise<string> {
  return tokenOf((await h.stack.bus.request('signups.calendar_feed.create', { principal })).url);
}

const events = (token: string) => h.stack.bus.request('signups.calendar_feed.events', { token });

describe('an organization’s calendar feed', () => {
  it('is made with a secret address under the public origin, read back without it, and stored only as a hash', async () => {
    const owner = caller();
    expect(await h.stack.bus.request('signups.calendar_feed.get', { principal: owner })).toEqual({
      exists: false,
      createdAt: null,
      livemode: false,
    });
    const created = await h.stack.bus.request('signups.calendar_feed.create', { principal: owner });
    expect(created.url).toMatch(/^https:\/\/api\.example\.test\/calendars\/cal_[0-9A-Za-z]{32}\.ics$/);
    const token = tokenOf(created.url);
    expect(token).toMatch(CALENDAR_FEED_TOKEN_PATTERN);
    expect(await h.stack.bus.request('signups.calendar_feed.get', { principal: owner })).toEqual({
      exists: true,
      createdAt: created.createdAt,
      livemode: false,
    });
    const stored = await h.app.context.dataSource!.query('SELECT * FROM signups.calendar_feeds WHERE organization_id = $1', [
      owner.organizationId,
    ]);
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token.slice(4));
  });

  it('stops opening with its old address once a new one is made, and with none once revoked', async () => {
    const owner = caller();
    const first = await createFeed(owner);
    const second = await createFeed(owner);
    expect(second).not.toBe(first);
    expect((await problemOf(events(first))).code).toBe('not_found');
    expect((await events(second)).livemode).toBe(false);
    expect(await h.stack.bus.request('signups.calendar_feed.revoke', { principal: owner })).toEqual({
      exists: false,
      createdAt: null,
      livemode: false,
    });
    expect((await problemOf(events(second))).code).toBe('not_found');
    expect((await h.stack.bus.request('signups.calendar_feed.get', { principal: owner })).exists).toBe(false);
    // Revoking again changes nothing and answers the same.
    expect((await h.stack.bus.request('signups.calendar_feed.revoke', { principal: owner })).exists).toBe(false);
  });

  it('keeps one feed per mode: the sandbox and the live feed of an organization are apart', async () => {
    const sandbox = caller();
    const live = caller({ organizationId: sandbox.organizationId, livemode: true });
    const sandboxToken = await createFeed(sandbox);
    const liveToken = await createFeed(live);
    await h.signup(sandbox, { slots: [{ title: 'Sandbox slot', capacity: 1 }] });
    await h.signup(live, { slots: [{ title: 'Live slot', capacity: 1 }] });
    const fromSandbox = await events(sandboxToken);
    const fromLive = await events(liveToken);
    expect(fromSandbox.livemode).toBe(false);
    expect(fromLive.livemode).toBe(true);
    expect(fromSandbox.signups.flatMap((s) => s.slots.map((slot) => slot.title))).toEqual(['Sandbox slot']);
    expect(fromLive.signups.flatMap((s) => s.slots.map((slot) => slot.title))).toEqual(['Live slot']);
    await h.stack.bus.request('signups.calendar_feed.revoke', { principal: sandbox });
    expect((await events(liveToken)).livemode).toBe(true);
  });

  it('answers not_found for a malformed or unknown token', async () => {
    for (const token of ['', 'cal_short', `cal_${'a'.repeat(32)}`, `cnf_${'a'.repeat(32)}`, `cal_${'a'.repeat(31)}!`]) {
      expect((await problemOf(events(token))).code).toBe('not_found');
    }
  });

  it('needs signups:read to read the state and signups:write to make or revoke', async () => {
    const reader = caller({ scopes: ['signups:read'] });
    expect((await h.stack.bus.request('signups.calendar_feed.get', { principal: reader })).exists).toBe(false);
    for (const subject of ['signups.calendar_feed.create', 'signups.calendar_feed.revoke'] as const) {
      expect(await problemOf(h.stack.bus.request(subject, { principal: reader }))).toMatchObject({ code: 'scope_required' });
    }
    const writer = caller({ scopes: ['signups:write'] });
    expect(await problemOf(h.stack.bus.request('signups.calendar_feed.get', { principal: writer }))).toMatchObject({
      code: 'scope_required',
    });
  });
});

describe('what a feed shows', () => {
  it('lists published and closed signups, slots as events and a signup without slots as one, the earliest first', async () => {
    const owner = caller();
    const token = await createFeed(owner);
    const later = await h.signup(owner, {
      signup: { title: 'Later', eventDate: daysFromNow(20), location: 'Park', description: 'Bring chairs' },
      slots: [
        { title: 'Cleanup', startTime: daysFromNow(20.5), endTime: daysFromNow(20.6), capacity: 2 },
        { title: 'Setup', startTime: daysFromNow(19.5), capacity: 2 },
      ],
    });
    const sooner = await h.signup(owner, { signup: { title: 'Sooner', eventDate: daysFromNow(10) }, status: 'closed' });
    await h.signup(owner, { signup: { title: 'Draft', eventDate: daysFromNow(5) }, status: 'draft' });
    await h.signup(caller(), { signup: { title: 'Another organization', eventDate: daysFromNow(5) } });
    const { signups } = await events(token);
    expect(signups.map((s) => s.title)).toEqual(['Sooner', 'Later']);
    expect(signups[0]).toEqual({
      id: sooner.signup.id,
      slug: sooner.signup.slug,
      title: 'Sooner',
      description: null,
      location: null,
      eventDate: sooner.signup.eventDate,
      timeZone: sooner.signup.timeZone,
      updatedAt: sooner.signup.updatedAt,
      publicUrl: `https://api.example.test/s/${sooner.signup.slug}`,
      slots: [],
    });
    expect(signups[1]).toMatchObject({
      id: later.signup.id,
      location: 'Park',
      description: 'Bring chairs',
      updatedAt: later.signup.updatedAt,
    });
    const setup = later.slots.find((s) => s.title === 'Setup')!;
    const cleanup = later.slots.find((s) => s.title === 'Cleanup')!;
    expect(signups[1]!.slots).toEqual([
      { id: setup.id, title: 'Setup', description: null, startTime: setup.startTime, endTime: null, updatedAt: setup.updatedAt },
      {
        id: cleanup.id,
        title: 'Cleanup',
        description: null,
        startTime: cleanup.startTime,
        endTime: cleanup.endTime,
        updatedAt: cleanup.updatedAt,
      },
    ]);
  });

  it('leaves out events that ended more than 30 days ago, keeping a signup’s later slots', async () => {
    const owner = caller();
    const token = await createFeed(owner);
    const old = await h.signup(owner, { signup: { title: 'Old', eventDate: daysFromNow(1) } });
    const mixed = await h.signup(owner, {
      signup: { title: 'Mixed', eventDate: daysFromNow(1) },
      slots: [
        { title: 'Long ago', startTime: daysFromNow(-40), endTime: daysFromNow(-39), capacity: 1 },
        { title: 'Last week', startTime: daysFromNow(-7), capacity: 1 },
      ],
    });
    await h.app.context.dataSource!.query('UPDATE signups.signups SET event_date = $2 WHERE id = $1', [old.signup.id, daysFromNow(-31)]);
    const { signups } = await events(token);
    expect(signups.map((s) => s.id)).toEqual([mixed.signup.id]);
    expect(signups[0]!.slots.map((s) => s.title)).toEqual(['Last week']);
  });

  it(`holds at most ${CALENDAR_FEED_MAX_EVENTS} events, the earliest`, async () => {
    const owner = caller();
    const token = await createFeed(owner);
    const slots = Array.from({ length: 100 }, (_, i) => ({ title: `Shift ${i}`, startTime: daysFromNow(2 + i / 1000), capacity: 1 }));
    for (let i = 0; i < 6; i++) await h.signup(owner, { signup: { title: `Day ${i}`, eventDate: daysFromNow(10 + i) }, slots });
    await h.signup(owner, { signup: { title: 'Soonest', eventDate: daysFromNow(1) } });
    const { signups } = await events(token);
    expect(signups.reduce((n, s) => n + Math.max(1, s.slots.length), 0)).toBe(CALENDAR_FEED_MAX_EVENTS);
    expect(signups[0]!.title).toBe('Soonest');
  });
});
