import { newId, newPrefixedId } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_slots_items');
});

afterAll(async () => {
  await h?.close();
});

const setup = { slots: [{ title: 'Setup', capacity: 2 }], items: [{ name: 'Salad', quantityNeeded: 3 }] };

describe('adding slots and items', () => {
  it('adds several slots at once, in the given order, with every place remaining', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal, { status: 'draft' });
    const { data } = await h.stack.bus.request('signups.slots.create', {
      principal,
      signupId: signup.id,
      input: [
        {
          title: 'Morning',
          description: 'Set up tables',
          startTime: '2027-06-01T09:00:00+02:00',
          endTime: '2027-06-01T11:00:00+02:00',
          capacity: 4,
        },
        { title: 'Evening', capacity: 2 },
      ],
    });
    expect(data).toEqual([
      {
        id: expect.any(String),
        title: 'Morning',
        description: 'Set up tables',
        startTime: '2027-06-01T07:00:00.000Z',
        endTime: '2027-06-01T09:00:00.000Z',
        capacity: 4,
        taken: 0,
        remaining: 4,
        updatedAt: expect.any(String),
        livemode: false,
      },
      {
        id: expect.any(String),
        title: 'Evening',
        description: null,
        startTime: null,
        endTime: null,
        capacity: 2,
        taken: 0,
        remaining: 2,
        updatedAt: expect.any(String),
        livemode: false,
      },
    ]);
  });

  it('adds items with the whole quantity remaining', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    const { data } = await h.stack.bus.request('signups.items.create', {
      principal,
      signupId: signup.id,
      input: [{ name: 'Salad', notes: 'No nuts', quantityNeeded: 3 }],
    });
    expect(data).toEqual([
      { id: expect.any(String), name: 'Salad', notes: 'No nuts', quantityNeeded: 3, quantityClaimed: 0, remaining: 3, livemode: false },
    ]);
  });

  it('returns the real slots and items with the signup, in creation order', async () => {
    const principal = caller();
    const timed = { title: 'A', capacity: 1, startTime: '2027-06-01T09:00:00.000Z', endTime: '2027-06-01T11:30:00.000Z' };
    const { signup, slots, items } = await h.signup(principal, {
      slots: [timed, { title: 'B', capacity: 1 }],
      items: [{ name: 'Cups', quantityNeeded: 5 }],
    });
    const later = await h.stack.bus.request('signups.slots.create', {
      principal,
      signupId: signup.id,
      input: [{ title: 'C', capacity: 1 }],
    });
    const read = await h.stack.bus.request('signups.get', { principal, id: signup.id });
    expect(read.slots).toEqual([...slots, ...later.data]);
    expect(read.slots!.map((s) => s.title)).toEqual(['A', 'B', 'C']);
    expect(read.slots![0]).toMatchObject({ startTime: timed.startTime, endTime: timed.endTime });
    expect(read.items).toEqual(items);
    expect((await h.stack.bus.request('signups.slots.list', { principal, signupId: signup.id })).data).toEqual(read.slots);
    expect((await h.stack.bus.request('signups.items.list', { principal, signupId: signup.id })).data).toEqual(items);
  });

  it('answers an empty batch with no slots', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    expect(await h.stack.bus.request('signups.slots.create', { principal, signupId: signup.id, input: [] })).toEqual({ data: [] });
  });

  it('validates every slot of a batch with its index in the path', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    const problem = await problemOf(
      h.stack.bus.request('signups.slots.create', {
        principal,
        signupId: signup.id,
        input: [
          { title: 'Fine', capacity: 1 },
          { title: '', capacity: 0 },
        ],
      }),
    );
    expect(problem).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'slots.1.title' }, { path: 'slots.1.capacity', message: 'Must be at least 1' }],
    });
  });

  it('refuses a slot that ends before it starts', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    const problem = await problemOf(
      h.stack.bus.request('signups.slots.create', {
        principal,
        signupId: signup.id,
        input: [{ title: 'Backwards', capacity: 1, startTime: '2027-06-01T10:00:00Z', endTime: '2027-06-01T09:00:00Z' }],
      }),
    );
    expect(problem).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'slots.0.endTime', message: 'Must not be before startTime' }],
    });
  });
});

describe('editing slots and items', () => {
  it('changes the given fields, clears those given as null and keeps the rest', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, {
      slots: [{ title: 'Setup', description: 'Tables', startTime: '2027-06-01T09:00:00Z', capacity: 2 }],
    });
    const slot = await h.stack.bus.request('signups.slots.update', {
      principal,
      signupId: signup.id,
      id: slots[0]!.id,
      input: { title: 'Set-up crew', description: null, capacity: 5 },
    });
    expect(slot).toEqual({
      ...slots[0],
      title: 'Set-up crew',
      description: null,
      capacity: 5,
      remaining: 5,
      updatedAt: expect.any(String),
    });
    expect(Date.parse(slot.updatedAt)).toBeGreaterThan(Date.parse(slots[0]!.updatedAt));
  });

  it('emits slot.updated with the slot as edited, once per edit, and nothing for an empty edit', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, { slots: [{ title: 'Setup', startTime: '2027-06-01T09:00:00Z', capacity: 2 }] });
    const slotId = slots[0]!.id;
    const input = { startTime: '2027-06-01T10:00:00.000Z', endTime: '2027-06-01T12:00:00.000Z' };
    const moved = await h.stack.bus.request('signups.slots.update', { principal, signupId: signup.id, id: slotId, input });
    await h.stack.bus.request('signups.slots.update', { principal, signupId: signup.id, id: slotId, input: {} });
    const [updated, ...more] = await eventually(() => {
      expect(h.eventsFor(slotId, 'slot.updated')).toHaveLength(1);
      return h.eventsFor(slotId, 'slot.updated');
    });
    expect(more).toEqual([]);
    expect(updated!.data).toEqual({ ...moved, ...input, signupId: signup.id, organizationId: principal.organizationId, livemode: false });
  });

  it('edits an item', async () => {
    const principal = caller();
    const { signup, items } = await h.signup(principal, setup);
    const item = await h.stack.bus.request('signups.items.update', {
      principal,
      signupId: signup.id,
      id: items[0]!.id,
      input: { notes: 'Vegan', quantityNeeded: 6 },
    });
    expect(item).toEqual({ ...items[0], notes: 'Vegan', quantityNeeded: 6, remaining: 6 });
  });

  it('refuses to drop capacity below the places taken with conflict, and changes nothing', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, { slots: [{ title: 'Setup', capacity: 3 }] });
    const slotId = slots[0]!.id;
    for (let i = 0; i < 2; i++) {
      await h.stack.bus.request('signups.participants.register', {
        signupId: signup.id,
        input: { ...person(), selections: [{ type: 'slot', id: slotId }] },
      });
    }
    const problem = await problemOf(
      h.stack.bus.request('signups.slots.update', { principal, signupId: signup.id, id: slotId, input: { title: 'Renamed', capacity: 1 } }),
    );
    expect(problem.code).toBe('conflict');
    expect(problem.detail).toContain('2');
    expect((await h.stack.bus.request('signups.slots.list', { principal, signupId: signup.id })).data[0]).toMatchObject({
      title: 'Setup',
      capacity: 3,
      taken: 2,
    });
  });

  it('refuses to drop quantityNeeded below the quantity claimed with conflict', async () => {
    const principal = caller();
    const { signup, items } = await h.signup(principal, setup);
    await h.stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { ...person(), selections: [{ type: 'item', id: items[0]!.id, quantity: 2 }] },
    });
    const problem = await problemOf(
      h.stack.bus.request('signups.items.update', { principal, signupId: signup.id, id: items[0]!.id, input: { quantityNeeded: 1 } }),
    );
    expect(problem.code).toBe('conflict');
  });

  it('lowers capacity to exactly what is taken and emits slot.filled; raising it again emits slot.opened', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, { slots: [{ title: 'Setup', capacity: 3 }] });
    const slotId = slots[0]!.id;
    await h.stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { ...person(), selections: [{ type: 'slot', id: slotId }] },
    });
    const full = await h.stack.bus.request('signups.slots.update', { principal, signupId: signup.id, id: slotId, input: { capacity: 1 } });
    expect(full).toMatchObject({ capacity: 1, taken: 1, remaining: 0 });
    await eventually(() => expect(h.eventsFor(slotId, 'slot.filled')).toHaveLength(1));
    expect(h.eventsFor(slotId, 'slot.filled')[0]!.data).toEqual({
      ...full,
      signupId: signup.id,
      organizationId: principal.organizationId,
      livemode: false,
    });
    const opened = await h.stack.bus.request('signups.slots.update', {
      principal,
      signupId: signup.id,
      id: slotId,
      input: { capacity: 2 },
    });
    await eventually(() => expect(h.eventsFor(slotId, 'slot.opened')).toHaveLength(1));
    expect(h.eventsFor(slotId, 'slot.opened')[0]!.data).toMatchObject({ ...opened, signupId: signup.id });
  });

  it('refuses an end time before the start time', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, { slots: [{ title: 'Setup', capacity: 1, startTime: '2027-06-01T10:00:00Z' }] });
    const problem = await problemOf(
      h.stack.bus.request('signups.slots.update', {
        principal,
        signupId: signup.id,
        id: slots[0]!.id,
        input: { endTime: '2027-06-01T09:00:00Z' },
      }),
    );
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'endTime', message: 'Must not be before startTime' }] });
  });

  it('answers an empty edit with the slot unchanged', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, setup);
    expect(await h.stack.bus.request('signups.slots.update', { principal, signupId: signup.id, id: slots[0]!.id, input: {} })).toEqual(
      slots[0],
    );
  });

  it('answers not_found for a slot of another signup of the same organization', async () => {
    const principal = caller();
    const a = await h.signup(principal, setup);
    const b = await h.signup(principal, setup);
    const problem = await problemOf(
      h.stack.bus.request('signups.slots.update', { principal, signupId: b.signup.id, id: a.slots[0]!.id, input: { title: 'x' } }),
    );
    expect(problem.code).toBe('not_found');
  });
});

describe('deleting slots and items', () => {
  it('deletes a slot nobody chose and returns it', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, setup);
    expect(await h.stack.bus.request('signups.slots.delete', { principal, signupId: signup.id, id: slots[0]!.id })).toEqual(slots[0]);
    expect((await h.stack.bus.request('signups.get', { principal, id: signup.id })).slots).toEqual([]);
  });

  it('refuses to delete a slot with registrations with conflict, until they are gone', async () => {
    const principal = caller();
    const { signup, slots } = await h.signup(principal, setup);
    const slotId = slots[0]!.id;
    const registered = await h.stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { ...person(), selections: [{ type: 'slot', id: slotId }] },
    });
    const problem = await problemOf(h.stack.bus.request('signups.slots.delete', { principal, signupId: signup.id, id: slotId }));
    expect(problem.code).toBe('conflict');
    expect(problem.detail).toContain('Setup');
    expect((await h.stack.bus.request('signups.slots.list', { principal, signupId: signup.id })).data).toHaveLength(1);
    await h.stack.bus.request('signups.registrations.cancel', { token: registered.confirmationToken! });
    expect(await h.stack.bus.request('signups.slots.delete', { principal, signupId: signup.id, id: slotId })).toMatchObject({
      id: slotId,
      taken: 0,
    });
  });

  it('refuses to delete an item with claims with conflict', async () => {
    const principal = caller();
    const { signup, items } = await h.signup(principal, setup);
    await h.stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { ...person(), selections: [{ type: 'item', id: items[0]!.id }] },
    });
    expect((await problemOf(h.stack.bus.request('signups.items.delete', { principal, signupId: signup.id, id: items[0]!.id }))).code).toBe(
      'conflict',
    );
  });

  it('deletes an unclaimed item', async () => {
    const principal = caller();
    const { signup, items } = await h.signup(principal, setup);
    expect(await h.stack.bus.request('signups.items.delete', { principal, signupId: signup.id, id: items[0]!.id })).toEqual(items[0]);
  });

  it('answers not_found for a slot that does not exist', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    expect((await problemOf(h.stack.bus.request('signups.slots.delete', { principal, signupId: signup.id, id: newId() }))).code).toBe(
      'not_found',
    );
  });
});

describe('who may change slots and items', () => {
  function everyAct(principal: ReturnType<typeof caller>, signupId: string, slotId: string, itemId: string) {
    return {
      createSlot: h.stack.bus.request('signups.slots.create', { principal, signupId, input: [{ title: 'x', capacity: 1 }] }),
      listSlots: h.stack.bus.request('signups.slots.list', { principal, signupId }),
      updateSlot: h.stack.bus.request('signups.slots.update', { principal, signupId, id: slotId, input: { title: 'x' } }),
      deleteSlot: h.stack.bus.request('signups.slots.delete', { principal, signupId, id: slotId }),
      createItem: h.stack.bus.request('signups.items.create', { principal, signupId, input: [{ name: 'x', quantityNeeded: 1 }] }),
      listItems: h.stack.bus.request('signups.items.list', { principal, signupId }),
      updateItem: h.stack.bus.request('signups.items.update', { principal, signupId, id: itemId, input: { name: 'x' } }),
      deleteItem: h.stack.bus.request('signups.items.delete', { principal, signupId, id: itemId }),
    };
  }

  async function codesOf(acts: Record<string, Promise<unknown>>): Promise<Set<string>> {
    return new Set(await Promise.all(Object.values(acts).map(async (act) => (await problemOf(act)).code)));
  }

  it("forbids every act on another organization's published signup", async () => {
    const { signup, slots, items } = await h.signup(caller(), setup);
    expect(await codesOf(everyAct(caller(), signup.id, slots[0]!.id, items[0]!.id))).toEqual(new Set(['forbidden']));
  });

  it("hides another organization's draft, the other mode's signup and absent signups as not_found", async () => {
    const organizationId = newPrefixedId('org');
    const draft = await h.signup(caller(), { ...setup, status: 'draft' });
    const sandbox = await h.signup(caller({ organizationId }), setup);
    expect(await codesOf(everyAct(caller(), draft.signup.id, draft.slots[0]!.id, draft.items[0]!.id))).toEqual(new Set(['not_found']));
    const live = caller({ organizationId, livemode: true });
    expect(await codesOf(everyAct(live, sandbox.signup.id, sandbox.slots[0]!.id, sandbox.items[0]!.id))).toEqual(new Set(['not_found']));
    expect(await codesOf(everyAct(caller(), newId(), newId(), newId()))).toEqual(new Set(['not_found']));
  });

  it('refuses every write on a closed signup with conflict, but lists its slots', async () => {
    const principal = caller();
    const { signup, slots, items } = await h.signup(principal, { ...setup, status: 'closed' });
    const { listSlots, listItems, ...writes } = everyAct(principal, signup.id, slots[0]!.id, items[0]!.id);
    expect(await codesOf(writes)).toEqual(new Set(['conflict']));
    expect((await listSlots).data).toEqual(slots);
    expect((await listItems).data).toEqual(items);
  });

  it('lists with signups:read and names signups:write for every change', async () => {
    const organizationId = newPrefixedId('org');
    const { signup, slots, items } = await h.signup(caller({ organizationId }), setup);
    const reader = caller({ organizationId, scopes: ['signups:read'] });
    const { listSlots, listItems, ...writes } = everyAct(reader, signup.id, slots[0]!.id, items[0]!.id);
    for (const problem of await Promise.all(Object.values(writes).map(problemOf))) {
      expect(problem.code).toBe('scope_required');
      expect(problem.detail).toContain('signups:write');
    }
    expect((await listSlots).data).toHaveLength(1);
    expect((await listItems).data).toHaveLength(1);
    const writer = caller({ organizationId, scopes: ['signups:write'] });
    expect((await problemOf(h.stack.bus.request('signups.slots.list', { principal: writer, signupId: signup.id }))).detail).toContain(
      'signups:read',
    );
  });

  it('names the malformed path id in the validation error', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    const bad = (p: Promise<unknown>) => problemOf(p).then((e) => e.errors);
    expect(await bad(h.stack.bus.request('signups.slots.update', { principal, signupId: signup.id, id: 'nope', input: {} }))).toEqual([
      { path: 'slotId', message: 'Invalid uuid' },
    ]);
    expect(await bad(h.stack.bus.request('signups.items.delete', { principal, signupId: signup.id, id: 'nope' }))).toEqual([
      { path: 'itemId', message: 'Invalid uuid' },
    ]);
    expect(await bad(h.stack.bus.request('signups.slots.list', { principal, signupId: 'nope' }))).toEqual([
      { path: 'id', message: 'Invalid uuid' },
    ]);
  });
});
