import { newId, newPrefixedId, PHONE_MESSAGE, type Principal, type RegistrationInput } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, daysFromNow, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_registration');
});

afterAll(async () => {
  await h?.close();
});

function register(signupId: string, input: Partial<RegistrationInput> = {}, principal?: Principal) {
  return h.stack.bus.request('signups.participants.register', {
    ...(principal && { principal }),
    signupId,
    input: { ...person(), selections: [], ...input },
  });
}

async function participantCount(principal: Principal, signupId: string): Promise<number> {
  return (await h.stack.bus.request('signups.get', { principal, id: signupId })).participantCount;
}

async function participantsOf(principal: Principal, signupId: string) {
  return (await h.stack.bus.request('signups.participants.list', { principal, signupId, query: {} })).data;
}

const potluck = {
  slots: [
    { title: 'Setup', capacity: 2 },
    { title: 'Cleanup', capacity: 1 },
  ],
  items: [{ name: 'Salad', quantityNeeded: 3 }],
};

describe('registering', () => {
  it('confirms each selection with the new participant, returns a confirmation token and takes the places', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const result = await register(signup.id, {
      name: 'Ana Lima',
      email: 'ana@example.com',
      selections: [
        { type: 'slot', id: slots[0]!.id },
        { type: 'item', id: items[0]!.id, quantity: 2 },
      ],
    });
    const [participant] = await participantsOf(owner, signup.id);
    expect(result).toEqual({
      success: true,
      confirmationToken: expect.stringMatching(/^cnf_[0-9A-Za-z]{32}$/),
      confirmed: [
        { type: 'slot', id: slots[0]!.id, participantId: participant!.id },
        { type: 'item', id: items[0]!.id, participantId: participant!.id },
      ],
      failed: [],
      waitlisted: [],
    });
    expect(participant).toEqual({
      id: expect.any(String),
      signupId: signup.id,
      name: 'Ana Lima',
      email: 'ana@example.com',
      phone: null,
      selections: [
        { type: 'slot', id: slots[0]!.id, quantity: 1 },
        { type: 'item', id: items[0]!.id, quantity: 2 },
      ],
      answers: {},
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      remindedAt: null,
      status: 'confirmed',
      statusChangedAt: participant!.createdAt,
      cancelledAt: null,
      checkedInAt: null,
      noShowAt: null,
      hoursServed: null,
      waitlist: [],
      livemode: false,
    });
    const read = await h.stack.bus.request('signups.get', { principal: owner, id: signup.id });
    expect(read.participantCount).toBe(1);
    expect(read.slots![0]).toMatchObject({ taken: 1, remaining: 1 });
    expect(read.items![0]).toMatchObject({ quantityClaimed: 2, remaining: 1 });
  });

  it('stores a participant without selections and returns a token', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const result = await register(signup.id);
    expect(result).toEqual({ success: true, confirmationToken: expect.stringMatching(/^cnf_/), confirmed: [], failed: [], waitlisted: [] });
    expect(await participantCount(owner, signup.id)).toBe(1);
  });

  it('gives every registration its own token', async () => {
    const { signup } = await h.signup(caller());
    const tokens = await Promise.all([register(signup.id), register(signup.id), register(signup.id)]);
    expect(new Set(tokens.map((t) => t.confirmationToken)).size).toBe(3);
  });

  it('stores the phone in E.164 form', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    await register(signup.id, { phone: '+1 (415) 555-0123' });
    expect((await participantsOf(owner, signup.id))[0]!.phone).toBe('+14155550123');
  });

  it('refuses a phone that is not an international number', async () => {
    const { signup } = await h.signup(caller());
    for (const phone of ['4155550123', '+1 555', 'call me']) {
      expect(await problemOf(register(signup.id, { phone }))).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'phone', message: PHONE_MESSAGE }],
      });
    }
  });

  it('refuses two selections of the same slot on the later one, and stores nothing', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const problem = await problemOf(
      register(signup.id, {
        selections: [
          { type: 'slot', id: slots[0]!.id },
          { type: 'item', id: items[0]!.id },
          { type: 'slot', id: slots[0]!.id.toUpperCase(), quantity: 2 },
        ],
      }),
    );
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'selections.2.id', message: 'Duplicate selection' }] });
    expect(await participantCount(owner, signup.id)).toBe(0);
  });

  it('validates the registration behind the edge', async () => {
    const { signup } = await h.signup(caller());
    const problem = await problemOf(
      h.stack.bus.request('signups.participants.register', { signupId: signup.id, input: { name: '', email: 'nope' } as never }),
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(['name', 'email', 'selections']);
    expect(await problemOf(register('not-a-uuid'))).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'id', message: 'Invalid uuid' }],
    });
  });

  it('accepts a caller with a credential and no scope at all', async () => {
    const { signup, slots } = await h.signup(caller(), potluck);
    const result = await register(signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }] }, caller({ scopes: [] }));
    expect(result.success).toBe(true);
  });
});

describe('selections that do not fit', () => {
  it('takes the last place, then refuses the next registration for it as full and stores nothing', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const cleanup = slots[1]!.id;
    expect((await register(signup.id, { selections: [{ type: 'slot', id: cleanup }] })).success).toBe(true);
    const second = await register(signup.id, { selections: [{ type: 'slot', id: cleanup }] });
    expect(second).toEqual({
      success: false,
      confirmed: [],
      failed: [{ type: 'slot', id: cleanup, reason: 'full', message: 'Slot “Cleanup” is full.' }],
      waitlisted: [],
    });
    expect(second).not.toHaveProperty('confirmationToken');
    expect(await participantCount(owner, signup.id)).toBe(1);
    expect(await participantsOf(owner, signup.id)).toHaveLength(1);
  });

  it('confirms what fits and reports the rest, storing the participant with the confirmed selections only', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const elsewhere = await h.signup(owner, potluck);
    const missing = newId();
    const result = await register(signup.id, {
      selections: [
        { type: 'item', id: items[0]!.id, quantity: 4 },
        { type: 'slot', id: slots[0]!.id },
        { type: 'slot', id: elsewhere.slots[0]!.id },
        { type: 'item', id: missing },
      ],
    });
    const [participant] = await participantsOf(owner, signup.id);
    expect(result).toEqual({
      success: false,
      confirmationToken: expect.stringMatching(/^cnf_/),
      confirmed: [{ type: 'slot', id: slots[0]!.id, participantId: participant!.id }],
      failed: [
        { type: 'item', id: items[0]!.id, reason: 'full', message: 'Item “Salad” needs only 3 more; 4 offered.' },
        { type: 'slot', id: elsewhere.slots[0]!.id, reason: 'not_found', message: 'No slot with this id in this signup.' },
        { type: 'item', id: missing, reason: 'not_found', message: 'No item with this id in this signup.' },
      ],
      waitlisted: [],
    });
    expect(participant!.selections).toEqual([{ type: 'slot', id: slots[0]!.id, quantity: 1 }]);
    expect((await h.stack.bus.request('signups.get', { principal: owner, id: signup.id })).items![0]!.quantityClaimed).toBe(0);
  });

  it('rolls everything back when every selection fails: no participant, no count, no token, no event', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const result = await register(signup.id, {
      selections: [
        { type: 'slot', id: slots[1]!.id, quantity: 2 },
        { type: 'item', id: newId() },
      ],
    });
    expect(result).toMatchObject({ success: false, confirmed: [], failed: [{ reason: 'full' }, { reason: 'not_found' }] });
    expect(result).not.toHaveProperty('confirmationToken');
    expect(await participantCount(owner, signup.id)).toBe(0);
    expect(await participantsOf(owner, signup.id)).toEqual([]);
    await h.stack.bus.request('signups.close', { principal: owner, id: signup.id });
    await eventually(() => expect(h.eventsFor(signup.id, 'signup.closed')).toHaveLength(1));
    expect(h.events.filter((e) => e.type === 'participant.registered' && (e.data as { signupId: string }).signupId === signup.id)).toEqual(
      [],
    );
  });
});

describe('when a signup takes registrations', () => {
  it('answers not_found for a signup that does not exist', async () => {
    expect((await problemOf(register(newId()))).code).toBe('not_found');
  });

  it('hides a draft from anonymous callers and other organizations, and tells its own organization it is a draft', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { status: 'draft' });
    const anonymous = await problemOf(register(signup.id));
    expect(anonymous.toWire()).toEqual((await problemOf(register(newId()))).toWire());
    expect((await problemOf(register(signup.id, {}, caller()))).code).toBe('not_found');
    const own = await problemOf(register(signup.id, {}, caller({ organizationId: owner.organizationId })));
    expect(own).toMatchObject({ code: 'bad_request', status: 400 });
    expect(own.detail).toContain('draft');
  });

  it("refuses a credential of the other mode as not_found, and takes another organization's credential of the same mode", async () => {
    const organizationId = newPrefixedId('org');
    const { signup } = await h.signup(caller({ organizationId }));
    expect((await problemOf(register(signup.id, {}, caller({ organizationId, livemode: true })))).code).toBe('not_found');
    expect((await register(signup.id, {}, caller())).success).toBe(true);
  });

  it('refuses a closed signup with bad_request', async () => {
    const { signup } = await h.signup(caller(), { status: 'closed' });
    const problem = await problemOf(register(signup.id));
    expect(problem.code).toBe('bad_request');
    expect(problem.detail).toContain('closed');
  });

  it('refuses a signup whose event has passed with bad_request', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { signup: { eventDate: daysFromNow(-1) } });
    const problem = await problemOf(register(signup.id));
    expect(problem.code).toBe('bad_request');
    expect(problem.detail).toContain('already taken place');
    expect(await participantCount(owner, signup.id)).toBe(0);
  });

  it('refuses a signup whose signupCloseDate has passed with bad_request', async () => {
    const { signup } = await h.signup(caller(), { signup: { signupCloseDate: daysFromNow(-1) } });
    const problem = await problemOf(register(signup.id));
    expect(problem.code).toBe('bad_request');
    expect(problem.detail).toContain('closed at');
  });

  it('refuses a registration beyond maxParticipants with bad_request and keeps the count', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { signup: { maxParticipants: 2 } });
    await register(signup.id);
    await register(signup.id);
    const problem = await problemOf(register(signup.id));
    expect(problem.code).toBe('bad_request');
    expect(problem.detail).toContain('full');
    expect(await participantCount(owner, signup.id)).toBe(2);
  });

  it('admits exactly maxParticipants when twenty register at once', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { signup: { maxParticipants: 5 } });
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => register(signup.id)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    expect(await participantCount(owner, signup.id)).toBe(5);
    expect(await participantsOf(owner, signup.id)).toHaveLength(5);
  });

  it('requires a phone when the signup asks for one', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { signup: { requiresPhone: true } });
    expect(await problemOf(register(signup.id))).toMatchObject({
      code: 'validation_failed',
      status: 422,
      errors: [{ path: 'phone', message: 'Required' }],
    });
    expect(await participantCount(owner, signup.id)).toBe(0);
    expect((await register(signup.id, { phone: '+14155550123' })).success).toBe(true);
  });

  it('reports a closed signup before a missing phone', async () => {
    const { signup } = await h.signup(caller(), { status: 'closed', signup: { requiresPhone: true } });
    expect((await problemOf(register(signup.id))).code).toBe('bad_request');
  });
});

describe('registration events', () => {
  it('emits participant.registered with the participant, its organization and mode', async () => {
    const owner = caller({ livemode: true });
    const { signup, slots } = await h.signup(owner, potluck);
    await register(signup.id, {
      name: 'Bo',
      email: 'bo@example.com',
      phone: '+447911123456',
      selections: [{ type: 'slot', id: slots[0]!.id }],
    });
    const [participant] = await participantsOf(owner, signup.id);
    await eventually(() => expect(h.eventsFor(participant!.id, 'participant.registered')).toHaveLength(1));
    expect(h.eventsFor(participant!.id)[0]).toMatchObject({
      source: 'signups-service',
      subject: participant!.id,
      orgid: owner.organizationId,
      livemode: true,
      data: { ...participant, organizationId: owner.organizationId, livemode: true },
    });
  });

  it('emits slot.filled and item.filled once each, when the last place and unit are taken', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const [setupSlot, cleanupSlot] = slots;
    await register(signup.id, {
      selections: [
        { type: 'slot', id: setupSlot!.id },
        { type: 'item', id: items[0]!.id, quantity: 2 },
      ],
    });
    await register(signup.id, {
      selections: [
        { type: 'slot', id: cleanupSlot!.id },
        { type: 'item', id: items[0]!.id },
      ],
    });
    await register(signup.id, { selections: [{ type: 'slot', id: setupSlot!.id }] });
    await register(signup.id, {
      selections: [
        { type: 'slot', id: setupSlot!.id },
        { type: 'item', id: items[0]!.id },
      ],
    });
    await eventually(() => {
      expect(h.eventsFor(setupSlot!.id, 'slot.filled')).toHaveLength(1);
      expect(h.eventsFor(cleanupSlot!.id, 'slot.filled')).toHaveLength(1);
      expect(h.eventsFor(items[0]!.id, 'item.filled')).toHaveLength(1);
    });
    expect(h.eventsFor(items[0]!.id, 'item.filled')[0]).toMatchObject({
      subject: items[0]!.id,
      orgid: owner.organizationId,
      data: { ...items[0], quantityClaimed: 3, remaining: 0, signupId: signup.id, organizationId: owner.organizationId, livemode: false },
    });
    expect(h.eventsFor(setupSlot!.id, 'slot.filled')[0]!.data).toEqual({
      ...setupSlot,
      taken: 2,
      remaining: 0,
      updatedAt: expect.any(String),
      signupId: signup.id,
      organizationId: owner.organizationId,
      livemode: false,
    });
  });
});
