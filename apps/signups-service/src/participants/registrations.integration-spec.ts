import { newId, type Principal, type RegistrationInput } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, daysFromNow, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_registrations');
});

afterAll(async () => {
  await h?.close();
});

const potluck = {
  slots: [
    { title: 'Setup', capacity: 1 },
    { title: 'Cleanup', capacity: 3 },
  ],
  items: [{ name: 'Salad', quantityNeeded: 2 }],
};

async function registration(signupId: string, input: Partial<RegistrationInput> = {}): Promise<string> {
  const result = await h.stack.bus.request('signups.participants.register', { signupId, input: { ...person(), selections: [], ...input } });
  return result.confirmationToken!;
}

async function signupOf(principal: Principal, id: string) {
  return h.stack.bus.request('signups.get', { principal, id });
}

describe('reading a registration by its confirmation token', () => {
  it("returns the participant and the signup's public view", async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const token = await registration(signup.id, {
      name: 'Ana',
      email: 'ana@example.com',
      selections: [{ type: 'slot', id: slots[1]!.id }],
    });
    const [participant] = (await h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: {} }))
      .data;
    const view = await h.stack.bus.request('signups.registrations.get', { token });
    expect(view).toEqual({
      participant,
      signup: {
        id: signup.id,
        slug: signup.slug,
        title: signup.title,
        description: null,
        status: 'published',
        eventDate: signup.eventDate,
        timeZone: 'UTC',
        location: null,
        requiresPhone: false,
        signupCloseDate: null,
        waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
        acceptingRegistrations: true,
        spotsRemaining: null,
        publicUrl: signup.publicUrl,
        livemode: false,
        updatedAt: signup.updatedAt,
        questions: [],
        slots: [slots[0], { ...slots[1], taken: 1, remaining: 2, updatedAt: expect.any(String) }],
        items,
      },
      calendarUrl: expect.stringMatching(/^https:\/\/api\.example\.test\/calendars\/pcal_[0-9A-Za-z_-]{54}\.ics$/),
    });
  });

  it('answers not_found for a malformed or unknown token', async () => {
    for (const token of ['', 'cnf_short', 'sgn_test_0123456789abcdefghijABCDEFGHIJ12', `cnf_${'a'.repeat(32)}`, `cnf_${'a'.repeat(31)}!`]) {
      expect((await problemOf(h.stack.bus.request('signups.registrations.get', { token }))).code).toBe('not_found');
    }
  });
});

describe('changing a registration by its confirmation token', () => {
  it('changes the name and phone and re-allocates the selections', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const token = await registration(signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }] });
    const view = await h.stack.bus.request('signups.registrations.update', {
      token,
      input: { name: 'Renamed', phone: '+14155550123', selections: [{ type: 'item', id: items[0]!.id, quantity: 2 }] },
    });
    expect(view.participant).toMatchObject({
      name: 'Renamed',
      phone: '+14155550123',
      selections: [{ type: 'item', id: items[0]!.id, quantity: 2 }],
    });
    expect(view.signup.slots[0]).toMatchObject({ taken: 0, remaining: 1 });
    expect(view.signup.items[0]).toMatchObject({ quantityClaimed: 2, remaining: 0 });
    expect(await h.stack.bus.request('signups.registrations.get', { token })).toEqual(view);
    await eventually(() => expect(h.eventsFor(view.participant.id, 'participant.updated')).toHaveLength(1));
  });

  it('refuses a full slot with conflict and keeps everything as it was', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    await registration(signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }] });
    const token = await registration(signup.id, { selections: [{ type: 'slot', id: slots[1]!.id }] });
    const before = await h.stack.bus.request('signups.registrations.get', { token });
    const problem = await problemOf(
      h.stack.bus.request('signups.registrations.update', { token, input: { selections: [{ type: 'slot', id: slots[0]!.id }] } }),
    );
    expect(problem.code).toBe('conflict');
    expect(await h.stack.bus.request('signups.registrations.get', { token })).toEqual(before);
  });

  it('refuses a slot that is not in this signup with validation_failed on its selection', async () => {
    const { signup } = await h.signup(caller(), potluck);
    const token = await registration(signup.id);
    const problem = await problemOf(
      h.stack.bus.request('signups.registrations.update', { token, input: { selections: [{ type: 'slot', id: newId() }] } }),
    );
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'selections.0.id' }] });
  });

  it('does not let a participant change their e-mail', async () => {
    const { signup } = await h.signup(caller());
    const token = await registration(signup.id);
    const problem = await problemOf(
      h.stack.bus.request('signups.registrations.update', { token, input: { email: 'other@example.com' } as never }),
    );
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'email', message: 'Unknown field' }] });
  });

  it('refuses changes once the signup is closed, while the organizer still can', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const token = await registration(signup.id);
    await h.stack.bus.request('signups.close', { principal: owner, id: signup.id });
    const problem = await problemOf(h.stack.bus.request('signups.registrations.update', { token, input: { name: 'Too late' } }));
    expect(problem).toMatchObject({ code: 'bad_request', status: 400 });
    const { participant } = await h.stack.bus.request('signups.registrations.get', { token });
    const edited = await h.stack.bus.request('signups.participants.update', {
      principal: owner,
      signupId: signup.id,
      id: participant.id,
      input: { name: 'Fixed' },
    });
    expect(edited.name).toBe('Fixed');
  });

  it('refuses changes once the event has taken place', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const token = await registration(signup.id);
    await h.stack.bus.request('signups.update', { principal: owner, id: signup.id, input: { eventDate: daysFromNow(-1) } });
    const problem = await problemOf(h.stack.bus.request('signups.registrations.update', { token, input: { name: 'Too late' } }));
    expect(problem.code).toBe('bad_request');
    expect(problem.detail).toContain('already taken place');
  });

  it('still allows changes after signupCloseDate, as long as the event has not started', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const token = await registration(signup.id);
    await h.stack.bus.request('signups.update', { principal: owner, id: signup.id, input: { signupCloseDate: daysFromNow(-1) } });
    expect((await h.stack.bus.request('signups.registrations.update', { token, input: { name: 'Still fine' } })).participant.name).toBe(
      'Still fine',
    );
  });

  it('applies concurrent changes of one registration one after the other, leaving the count equal to the last one', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const cleanup = slots[1]!.id;
    const token = await registration(signup.id, { selections: [{ type: 'slot', id: cleanup }] });
    const views = await Promise.all(
      [3, 1, 2, 3, 2, 1].map((quantity) =>
        h.stack.bus.request('signups.registrations.update', { token, input: { selections: [{ type: 'slot', id: cleanup, quantity }] } }),
      ),
    );
    expect(views).toHaveLength(6);
    const { participant, signup: view } = await h.stack.bus.request('signups.registrations.get', { token });
    expect(view.slots[1]!.taken).toBe(participant.selections[0]!.quantity);
  });

  it('answers not_found for an unknown token', async () => {
    expect((await problemOf(h.stack.bus.request('signups.registrations.update', { token: `cnf_${'b'.repeat(32)}`, input: {} }))).code).toBe(
      'not_found',
    );
  });
});

describe('canceling a registration by its confirmation token', () => {
  it('marks the participant cancelled, frees the places at once, lowers the count and answers the registration as it is now', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const token = await registration(signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }] });
    const before = await h.stack.bus.request('signups.registrations.get', { token });
    const canceled = await h.stack.bus.request('signups.registrations.cancel', { token });
    expect(canceled.participant).toEqual({
      ...before.participant,
      status: 'cancelled',
      statusChangedAt: canceled.participant.cancelledAt,
      updatedAt: canceled.participant.cancelledAt,
      cancelledAt: expect.any(String),
    });
    expect(canceled.signup.slots[0]).toMatchObject({ taken: 0, remaining: 1 });
    const read = await signupOf(owner, signup.id);
    expect(read.participantCount).toBe(0);
    expect((await h.stack.bus.request('signups.registrations.get', { token })).participant).toEqual(canceled.participant);
    expect((await h.stack.bus.request('signups.registrations.cancel', { token })).participant).toEqual(canceled.participant);
    await eventually(() => {
      expect(h.eventsFor(before.participant.id, 'participant.canceled')).toHaveLength(1);
      expect(h.eventsFor(slots[0]!.id, 'slot.opened')).toHaveLength(1);
    });
  });

  it('emits item.opened when a fully claimed item gets a unit back', async () => {
    const owner = caller();
    const { signup, items } = await h.signup(owner, potluck);
    const token = await registration(signup.id, { selections: [{ type: 'item', id: items[0]!.id, quantity: 2 }] });
    await eventually(() => expect(h.eventsFor(items[0]!.id, 'item.filled')).toHaveLength(1));
    await h.stack.bus.request('signups.registrations.update', { token, input: { selections: [{ type: 'item', id: items[0]!.id }] } });
    await eventually(() => expect(h.eventsFor(items[0]!.id, 'item.opened')).toHaveLength(1));
    expect(h.eventsFor(items[0]!.id, 'item.opened')[0]!.data).toEqual({
      ...items[0],
      quantityClaimed: 1,
      remaining: 1,
      signupId: signup.id,
      organizationId: owner.organizationId,
      livemode: false,
    });
  });

  it('cancels once when the same token cancels concurrently, answering each call the cancelled registration', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    await registration(signup.id);
    const token = await registration(signup.id, { selections: [{ type: 'slot', id: slots[1]!.id, quantity: 2 }] });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => h.stack.bus.request('signups.registrations.cancel', { token })),
    );
    expect(outcomes.map((o) => o.status === 'fulfilled' && o.value.participant.status)).toEqual(Array(8).fill('cancelled'));
    const read = await signupOf(owner, signup.id);
    expect(read.participantCount).toBe(1);
    expect(read.slots![1]!.taken).toBe(0);
    const { participant } = await h.stack.bus.request('signups.registrations.get', { token });
    await eventually(() => expect(h.eventsFor(participant.id, 'participant.canceled')).toHaveLength(1));
  });

  it('refuses to cancel once the signup is closed', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const token = await registration(signup.id);
    await h.stack.bus.request('signups.close', { principal: owner, id: signup.id });
    expect((await problemOf(h.stack.bus.request('signups.registrations.cancel', { token }))).code).toBe('bad_request');
    expect((await signupOf(owner, signup.id)).participantCount).toBe(1);
  });

  it('refuses to cancel once the event has taken place', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const token = await registration(signup.id);
    await h.stack.bus.request('signups.update', { principal: owner, id: signup.id, input: { eventDate: daysFromNow(-1) } });
    expect((await problemOf(h.stack.bus.request('signups.registrations.cancel', { token }))).code).toBe('bad_request');
  });
});
