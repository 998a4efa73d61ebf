import { newPrefixedId, type Principal } from '#libs/contracts';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

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
        { id: setupSlot!.id, title: 'Setup', capacity: 4, registered: 1, ratio: 0.25 },
        { id: cleanupSlot!.id, title: 'Cleanup', capacity: 2, registered: 2, ratio: 1 },
      ],
      items: [
        { id: salad!.id, name: 'Salad', needed: 3, claimed: 1, ratio: 0.3333 },
        { id: cups!.id, name: 'Cups', needed: 1, claimed: 1, ratio: 1 },
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
    });
  });

  it('has no average pace with a single registration', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    await h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { ...person(), selections: [] } });
    const { responseTime } = await analytics(owner, signup.id);
    expect(responseTime.firstRegistrationAt).toBe(responseTime.lastRegistrationAt);
    expect(responseTime.averageHoursBetweenRegistrations).toBeNull();
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
