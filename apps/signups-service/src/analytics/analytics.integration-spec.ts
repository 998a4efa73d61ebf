import { newPrefixedId, type Principal, type SelectionInput } from '#libs/contracts';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';
import { OfferExpiry } from '../waitlist/offer-expiry.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_analytics');
});

afterAll(async () => {
  await h?.close();
});

function analytics(principal: Principal, signupId: string) {
  return h.stack.bus.request('signups.analytics', { principal, signupId });
}

describe('signup analytics', () => {
  it('computes fill rates, gaps and registration pace from the live data', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, {
      slots: [
        { title: 'Setup', capacity: 4 },
        { title: 'Cleanup', capacity: 2 },
      ],
      items: [
        { name: 'Salad', quantityNeeded: 3 },
        { name: 'Cups', quantityNeeded: 1 },
      ],
    });
    const [setupSlot, cleanupSlot] = slots;
    const [salad, cups] = items;
    const register = (selections: { type: 'slot' | 'item'; id: string; quantity?: number }[]) =>
      h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { ...person(), selections } });
    await register([
      { type: 'slot', id: cleanupSlot!.id, quantity: 2 },
      { type: 'item', id: cups!.id },
    ]);
    await register([{ type: 'slot', id: setupSlot!.id }]);
    await register([{ type: 'item', id: salad!.id }]);
    // Spread the registrations over 6 hours: first at T, last at T+6h, so 3 h between registrations on average.
    await h.app.context.dataSource!.query(
      `UPDATE signups.participants p SET created_at = timestamptz '2026-05-01T10:00:00Z' + (n.rn - 1) * interval '3 hours'
       FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS rn FROM signups.participants WHERE signup_id = $1) n WHERE p.id = n.id`,
      [signup.id],
    );
    expect(await analytics(owner, signup.id)).toEqual({
      signupId: signup.id,
      participantCount: 3,
      quantityCommitted: 5,
      fillRate: { capacity: 10, ratio: 0.5 },
      slots: [
        { id: setupSlot!.id, title: 'Setup', capacity: 4, registered: 1, ratio: 0.25, waiting: 0 },
        { id: cleanupSlot!.id, title: 'Cleanup', capacity: 2, registered: 2, ratio: 1, waiting: 0 },
      ],
      items: [
        { id: salad!.id, name: 'Salad', needed: 3, claimed: 1, ratio: 0.3333, waiting: 0 },
        { id: cups!.id, name: 'Cups', needed: 1, claimed: 1, ratio: 1, waiting: 0 },
      ],
      gaps: [
        { kind: 'slot', id: setupSlot!.id, label: 'Setup', shortBy: 3 },
        { kind: 'item', id: salad!.id, label: 'Salad', shortBy: 2 },
      ],
      responseTime: {
        firstRegistrationAt: '2026-05-01T10:00:00.000Z',
        lastRegistrationAt: '2026-05-01T16:00:00.000Z',
        averageHoursBetweenRegistrations: 3,
      },
      waitlist: { waiting: 0, promotions: 0, offersExpired: 0 },
      attendanceRate: null,
      attendance: { attended: 0, noShow: 0, unmarked: 3 },
      registrationsByDay: [{ date: '2026-05-01', count: 3 }],
    });
  });

  it('answers zeros and nulls for a signup without slots, items or participants', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { status: 'draft' });
    expect(await analytics(owner, signup.id)).toEqual({
      signupId: signup.id,
      participantCount: 0,
      quantityCommitted: 0,
      fillRate: { capacity: 0, ratio: 0 },
      slots: [],
      items: [],
      gaps: [],
      responseTime: { firstRegistrationAt: null, lastRegistrationAt: null, averageHoursBetweenRegistrations: null },
      waitlist: { waiting: 0, promotions: 0, offersExpired: 0 },
      attendanceRate: null,
      attendance: { attended: 0, noShow: 0, unmarked: 0 },
      registrationsByDay: [],
    });
  });

  it("counts registrations per day in the signup's time zone, cancelled ones included", async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { signup: { timeZone: 'America/New_York' } });
    const ids: string[] = [];
    for (let n = 0; n < 4; n++) {
      const { confirmationToken } = await h.stack.bus.request('signups.participants.register', {
        signupId: signup.id,
        input: { ...person(), selections: [] },
      });
      ids.push((await h.stack.bus.request('signups.registrations.get', { token: confirmationToken! })).participant.id);
    }
    await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: ids[3]! });
    // 03:00 UTC on May 2 is 23:00 on May 1 in New York (EDT, UTC-4); 05:00 UTC is 01:00 on May 2.
    await h.app.context.dataSource!.query(
      `UPDATE signups.participants p SET created_at = t.at::timestamptz
       FROM unnest($1::uuid[], $2::text[]) AS t(id, at) WHERE p.id = t.id`,
      [ids, ['2026-05-02T03:00:00Z', '2026-05-02T05:00:00Z', '2026-04-01T12:00:00Z', '2026-05-02T12:00:00Z']],
    );
    const view = await analytics(owner, signup.id);
    expect(view.registrationsByDay).toEqual([
      { date: '2026-04-01', count: 1 },
      { date: '2026-05-01', count: 1 },
      { date: '2026-05-02', count: 2 },
    ]);
    expect(view.participantCount).toBe(3);
  });

  it('answers the latest 366 days with registrations', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    await h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { ...person(), selections: [] } });
    // 367 copies of that registration, one a day from 2025-01-02 to 2026-01-03: with today's, 368 days.
    await h.app.context.dataSource!.query(
      `INSERT INTO signups.participants
       SELECT (jsonb_populate_record(p, jsonb_build_object('id', gen_random_uuid(), 'token_hash', p.token_hash || g,
         'created_at', timestamptz '2025-01-01T12:00:00Z' + g * interval '1 day'))).*
       FROM signups.participants p, generate_series(1, 367) g WHERE p.signup_id = $1`,
      [signup.id],
    );
    const { registrationsByDay } = await analytics(owner, signup.id);
    expect(registrationsByDay).toHaveLength(366);
    expect(registrationsByDay.slice(0, 2)).toEqual([
      { date: '2025-01-04', count: 1 },
      { date: '2025-01-05', count: 1 },
    ]);
    expect(registrationsByDay.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), count: 1 });
  });

  it('has no average pace with a single registration', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    await h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { ...person(), selections: [] } });
    const { responseTime } = await analytics(owner, signup.id);
    expect(responseTime.firstRegistrationAt).toBe(responseTime.lastRegistrationAt);
    expect(responseTime.averageHoursBetweenRegistrations).toBeNull();
  });

  it("counts who waits in each slot's, item's and the signup's line, promotions, expired offers and the attendance rate", async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, {
      signup: { maxParticipants: 4, waitlist: { enabled: true, mode: 'offer', offerMinutes: 30 } },
      slots: [{ title: 'Setup', capacity: 1 }],
      items: [{ name: 'Cups', quantityNeeded: 1 }],
    });
    const S = { type: 'slot', id: slots[0]!.id } as const;
    const I = { type: 'item', id: items[0]!.id } as const;
    const register = async (selections: SelectionInput[]) =>
      (await h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { ...person(), selections } }))
        .confirmationToken!;
    const participantOf = async (token: string) => (await h.stack.bus.request('signups.registrations.get', { token })).participant;
    const setup = await participantOf(await register([S]));
    await register([S]);
    await register([S]);
    const cups = await participantOf(await register([I]));
    // The signup is full: the fifth waits in its line and in the item's.
    const late = await participantOf(await register([I]));
    expect(late.waitlist.map((e) => [e.type, e.position])).toEqual([
      ['signup', 1],
      ['item', 1],
    ]);
    // A second place in the slot is offered to the first in line; the offer runs out and passes to the next, whom the organizer promotes.
    await h.stack.bus.request('signups.slots.update', { principal: owner, signupId: signup.id, id: S.id, input: { capacity: 2 } });
    await h.app.context.dataSource!.query(
      `UPDATE signups.waitlist_entries SET offer_expires_at = now() - interval '1 second' WHERE signup_id = $1 AND state = 'offered'`,
      [signup.id],
    );
    await h.app.app.get(OfferExpiry).sweep();
    const line = await h.stack.bus.request('signups.waitlist.list', { principal: owner, signupId: signup.id, query: { type: 'slot' } });
    expect(line.data.map((e) => e.state)).toEqual(['offered']);
    await h.stack.bus.request('signups.waitlist.promote', { principal: owner, signupId: signup.id, id: line.data[0]!.id });
    await h.stack.bus.request('signups.attendance.check_in', { principal: owner, signupId: signup.id, id: cups.id, input: {} });
    await h.stack.bus.request('signups.attendance.no_show', { principal: owner, signupId: signup.id, id: setup.id });

    const view = await analytics(owner, signup.id);
    expect(view.slots.map((s) => s.waiting)).toEqual([0]);
    expect(view.items.map((i) => i.waiting)).toEqual([1]);
    expect(view.waitlist).toEqual({ waiting: 1, promotions: 1, offersExpired: 1 });
    expect(view.attendanceRate).toBe(0.5);
    // The one promoted into the slot is confirmed and not marked; the late one, waiting for the item, is in none.
    expect(view.attendance).toEqual({ attended: 1, noShow: 1, unmarked: 1 });
    // The participants the signup counts: not the one whose offer ran out (cancelled), and the late one admitted in its place.
    const read = await h.stack.bus.request('signups.get', { principal: owner, id: signup.id });
    expect([view.participantCount, read.participantCount]).toEqual([4, 4]);
  });

  it('is for the organizer only, with analytics:read', async () => {
    const organizationId = newPrefixedId('org');
    const { signup } = await h.signup(caller({ organizationId }));
    const draft = await h.signup(caller(), { status: 'draft' });
    expect((await problemOf(analytics(caller(), signup.id))).code).toBe('forbidden');
    expect((await problemOf(analytics(caller(), draft.signup.id))).code).toBe('not_found');
    expect((await problemOf(analytics(caller({ organizationId, livemode: true }), signup.id))).code).toBe('not_found');
    const problem = await problemOf(analytics(caller({ organizationId, scopes: ['signups:read'] }), signup.id));
    expect(problem).toMatchObject({ code: 'scope_required', detail: expect.stringContaining('analytics:read') });
  });
});
