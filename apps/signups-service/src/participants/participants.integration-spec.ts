import { encodeCursor, newId, newPrefixedId, type ParticipantView, type Principal, type RegistrationInput } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, daysFromNow, participantsList, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startApp('signups_participants');
});

afterAll(async () => {
  await h?.close();
});

function register(signupId: string, input: Partial<RegistrationInput> = {}) {
  return h.stack.bus.request('signups.participants.register', { signupId, input: { ...person(), selections: [], ...input } });
}

async function registered(principal: Principal, signupId: string, input: Partial<RegistrationInput> = {}): Promise<ParticipantView> {
  await register(signupId, input);
  return (await h.stack.bus.request('signups.participants.list', { principal, signupId, query: { limit: 1 } })).data[0]!;
}

async function signupOf(principal: Principal, id: string) {
  return h.stack.bus.request('signups.get', { principal, id });
}

const potluck = {
  slots: [
    { title: 'Setup', capacity: 1 },
    { title: 'Cleanup', capacity: 2 },
  ],
  items: [{ name: 'Salad', quantityNeeded: 2 }],
};

describe('listing participants', () => {
  async function allPages(principal: Principal, signupId: string, limit: number, between: () => Promise<unknown> = async () => undefined) {
    const pages: ParticipantView[][] = [];
    let cursor: string | undefined;
    do {
      const page = await h.stack.bus.request('signups.participants.list', {
        principal,
        signupId,
        query: { limit, ...(cursor && { cursor }) },
      });
      pages.push(page.data);
      cursor = page.nextCursor ?? undefined;
      await between();
    } while (cursor);
    return pages;
  }

  function newestFirst(a: ParticipantView, b: ParticipantView): number {
    return `${b.createdAt} ${b.id}` < `${a.createdAt} ${a.id}` ? -1 : 1;
  }

  it('pages through 45 participants newest first, none twice and none missing', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    await Promise.all(Array.from({ length: 45 }, () => register(signup.id)));
    const pages = await allPages(owner, signup.id, 20);
    expect(pages.map((p) => p.length)).toEqual([20, 20, 5]);
    const all = pages.flat();
    expect(new Set(all.map((p) => p.id)).size).toBe(45);
    expect(all).toEqual([...all].sort(newestFirst));
  });

  it('stays stable while people register between page fetches', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    for (let i = 0; i < 12; i++) await register(signup.id);
    const before = (
      await h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: { limit: 100 } })
    ).data;
    const pages = await allPages(owner, signup.id, 5, () => register(signup.id));
    expect(pages.flat().map((p) => p.id)).toEqual(before.map((p) => p.id));
  });

  it('answers 20 by default with a null nextCursor on the last page', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    for (let i = 0; i < 21; i++) await register(signup.id);
    const first = await h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: {} });
    expect(first.data).toHaveLength(20);
    const last = await h.stack.bus.request('signups.participants.list', {
      principal: owner,
      signupId: signup.id,
      query: { cursor: first.nextCursor! },
    });
    expect(last.data).toHaveLength(1);
    expect(last.nextCursor).toBeNull();
  });

  it('refuses a limit outside 1..100 and a malformed cursor', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    for (const limit of [0, 101]) {
      const problem = await problemOf(
        h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: { limit } }),
      );
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'limit' }] });
    }
    for (const cursor of [
      '%%%',
      encodeCursor({ createdAt: 'then', id: newId() }, participantsList(owner, signup.id)),
      encodeCursor({ eventDate: '2027-01-01T00:00:00Z', id: newId() }, participantsList(owner, signup.id)),
    ]) {
      const problem = await problemOf(
        h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: { cursor } }),
      );
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
    }
  });

  it('refuses a cursor whose date is out of range or not RFC 3339, before it reaches the database', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const dates = [
      '-271821-04-20T00:00:00.000Z',
      '+275760-09-13T00:00:00.000Z',
      '2027-02-30T00:00:00.000Z',
      '2027-01-01',
      'Fri, 01 Jan 2027 00:00:00 GMT',
    ];
    for (const createdAt of dates) {
      const cursor = encodeCursor({ createdAt, id: newId() }, participantsList(owner, signup.id));
      const problem = await problemOf(
        h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: { cursor } }),
      );
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
    }
    const cursor = encodeCursor({ createdAt: '2999-01-01T00:00:00Z', id: newId() }, participantsList(owner, signup.id));
    expect(await h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: { cursor } })).toEqual({
      data: [],
      nextCursor: null,
    });
  });

  it("forbids another organization to read a published signup's participants and hides drafts and the other mode", async () => {
    const organizationId = newPrefixedId('org');
    const { signup } = await h.signup(caller({ organizationId }));
    const draft = await h.signup(caller(), { status: 'draft' });
    const list = (principal: Principal, signupId: string) =>
      problemOf(h.stack.bus.request('signups.participants.list', { principal, signupId, query: {} }));
    expect((await list(caller(), signup.id)).code).toBe('forbidden');
    expect((await list(caller(), draft.signup.id)).code).toBe('not_found');
    expect((await list(caller({ organizationId, livemode: true }), signup.id)).code).toBe('not_found');
  });

  it('names participants:read for a credential without it', async () => {
    const organizationId = newPrefixedId('org');
    const { signup } = await h.signup(caller({ organizationId }));
    const problem = await problemOf(
      h.stack.bus.request('signups.participants.list', {
        principal: caller({ organizationId, scopes: ['signups:read'] }),
        signupId: signup.id,
        query: {},
      }),
    );
    expect(problem).toMatchObject({ code: 'scope_required', detail: expect.stringContaining('participants:read') });
  });
});

describe('listing participants changed since a time (updated_since)', () => {
  it('lists only the participants changed at or after it, and refuses a cursor of another list', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const untouched = await registered(owner, signup.id);
    const edited = await registered(owner, signup.id);
    const updated = await h.stack.bus.request('signups.participants.update', {
      principal: owner,
      signupId: signup.id,
      id: edited.id,
      input: { name: 'Renamed' },
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(untouched.updatedAt));
    const list = (query: Record<string, unknown>, principal: Principal = owner, signupId = signup.id) =>
      h.stack.bus.request('signups.participants.list', { principal, signupId, query });
    expect((await list({ updated_since: updated.updatedAt })).data).toEqual([expect.objectContaining({ id: edited.id, name: 'Renamed' })]);
    const first = await list({ updated_since: untouched.updatedAt, limit: 1 });
    expect(first.data.map((p) => p.id)).toEqual([edited.id]);
    expect((await list({ updated_since: untouched.updatedAt, limit: 1, cursor: first.nextCursor })).data.map((p) => p.id)).toEqual([
      untouched.id,
    ]);
    const { signup: another } = await h.signup(owner);
    for (const [query, principal, signupId] of [
      [{ cursor: first.nextCursor }, owner, signup.id],
      [{ updated_since: untouched.updatedAt, cursor: first.nextCursor }, owner, another.id],
      [{ updated_since: untouched.updatedAt, cursor: first.nextCursor, status: 'confirmed' }, owner, signup.id],
    ] as const) {
      const problem = await problemOf(list(query, principal, signupId));
      expect(problem).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'cursor', message: expect.stringContaining('belongs to another list') }],
      });
    }
  });

  it('refuses an updated_since in the future or not an RFC 3339 date-time, with validation_failed on path updated_since', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    for (const updated_since of [new Date(Date.now() + 3_600_000).toISOString(), 'now', '2026-13-01T00:00:00Z']) {
      const problem = await problemOf(
        h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: { updated_since } }),
      );
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'updated_since' }] });
    }
  });
});

describe('the organizer editing a registration', () => {
  it('changes name, email and phone, keeps the selections and emits participant.updated', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const participant = await registered(owner, signup.id, { selections: [{ type: 'slot', id: slots[1]!.id }] });
    const updated = await h.stack.bus.request('signups.participants.update', {
      principal: owner,
      signupId: signup.id,
      id: participant.id,
      input: { name: 'New name', email: 'new@example.com', phone: '+33 6 12 34 56 78' },
    });
    expect(updated).toEqual({
      ...participant,
      name: 'New name',
      email: 'new@example.com',
      phone: '+33612345678',
      updatedAt: expect.any(String),
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(participant.updatedAt));
    await eventually(() => expect(h.eventsFor(participant.id, 'participant.updated')).toHaveLength(1));
    expect(h.eventsFor(participant.id, 'participant.updated')[0]!.data).toEqual({
      ...updated,
      organizationId: owner.organizationId,
      livemode: false,
    });
  });

  it('replaces the selections, gives back the old places and takes the new ones, emitting the openings and fillings', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const [setupSlot, cleanupSlot] = slots;
    const participant = await registered(owner, signup.id, { selections: [{ type: 'slot', id: setupSlot!.id }] });
    const updated = await h.stack.bus.request('signups.participants.update', {
      principal: owner,
      signupId: signup.id,
      id: participant.id,
      input: {
        selections: [
          { type: 'item', id: items[0]!.id, quantity: 2 },
          { type: 'slot', id: cleanupSlot!.id },
        ],
      },
    });
    expect(updated.selections).toEqual([
      { type: 'slot', id: cleanupSlot!.id, quantity: 1 },
      { type: 'item', id: items[0]!.id, quantity: 2 },
    ]);
    const read = await signupOf(owner, signup.id);
    expect(read.slots!.map((s) => s.taken)).toEqual([0, 1]);
    expect(read.items![0]!.quantityClaimed).toBe(2);
    await eventually(() => {
      expect(h.eventsFor(setupSlot!.id, 'slot.opened')).toHaveLength(1);
      expect(h.eventsFor(items[0]!.id, 'item.filled')).toHaveLength(1);
    });
    expect(h.eventsFor(setupSlot!.id, 'slot.opened')[0]!.data).toMatchObject({
      id: setupSlot!.id,
      taken: 0,
      remaining: 1,
      signupId: signup.id,
    });
  });

  it('keeps a full slot the participant already holds while changing the rest', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const participant = await registered(owner, signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }] });
    const updated = await h.stack.bus.request('signups.participants.update', {
      principal: owner,
      signupId: signup.id,
      id: participant.id,
      input: {
        selections: [
          { type: 'slot', id: slots[0]!.id },
          { type: 'item', id: items[0]!.id },
        ],
      },
    });
    expect(updated.selections).toHaveLength(2);
    expect((await signupOf(owner, signup.id)).slots![0]!.taken).toBe(1);
  });

  it('refuses a full slot with conflict naming it, and changes nothing', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    await register(signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }] });
    const participant = await registered(owner, signup.id, { selections: [{ type: 'item', id: items[0]!.id }] });
    const problem = await problemOf(
      h.stack.bus.request('signups.participants.update', {
        principal: owner,
        signupId: signup.id,
        id: participant.id,
        input: { name: 'Changed', selections: [{ type: 'slot', id: slots[0]!.id }] },
      }),
    );
    expect(problem.code).toBe('conflict');
    expect(problem.detail).toContain('Setup');
    expect(problem.detail).toContain(slots[0]!.id);
    const [unchanged] = (
      await h.stack.bus.request('signups.participants.list', { principal: owner, signupId: signup.id, query: { limit: 1 } })
    ).data;
    expect(unchanged).toEqual(participant);
    const read = await signupOf(owner, signup.id);
    expect(read.items![0]!.quantityClaimed).toBe(1);
    expect(read.slots![0]!.taken).toBe(1);
  });

  it('refuses a slot or item of another signup with validation_failed on its selection, and changes nothing', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const other = await h.signup(owner, potluck);
    const participant = await registered(owner, signup.id, { selections: [{ type: 'slot', id: slots[1]!.id }] });
    const problem = await problemOf(
      h.stack.bus.request('signups.participants.update', {
        principal: owner,
        signupId: signup.id,
        id: participant.id,
        input: {
          selections: [
            { type: 'slot', id: slots[0]!.id },
            { type: 'item', id: other.items[0]!.id },
            { type: 'slot', id: newId() },
          ],
        },
      }),
    );
    expect(problem).toMatchObject({
      code: 'validation_failed',
      errors: [
        { path: 'selections.1.id', message: 'No item with this id in this signup.' },
        { path: 'selections.2.id', message: 'No slot with this id in this signup.' },
      ],
    });
    expect((await signupOf(owner, signup.id)).slots!.map((s) => s.taken)).toEqual([0, 1]);
  });

  it('refuses duplicate selections', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const participant = await registered(owner, signup.id);
    const problem = await problemOf(
      h.stack.bus.request('signups.participants.update', {
        principal: owner,
        signupId: signup.id,
        id: participant.id,
        input: {
          selections: [
            { type: 'slot', id: slots[1]!.id },
            { type: 'slot', id: slots[1]!.id },
          ],
        },
      }),
    );
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'selections.1.id', message: 'Duplicate selection' }] });
  });

  it('edits registrations of a closed signup and of a past event', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const participant = await registered(owner, signup.id);
    await h.stack.bus.request('signups.update', { principal: owner, id: signup.id, input: { eventDate: daysFromNow(-1) } });
    await h.stack.bus.request('signups.close', { principal: owner, id: signup.id });
    const updated = await h.stack.bus.request('signups.participants.update', {
      principal: owner,
      signupId: signup.id,
      id: participant.id,
      input: { name: 'Late fix' },
    });
    expect(updated.name).toBe('Late fix');
  });

  it('refuses to clear the phone of a signup that requires one', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner, { signup: { requiresPhone: true } });
    const participant = await registered(owner, signup.id, { phone: '+14155550123' });
    const problem = await problemOf(
      h.stack.bus.request('signups.participants.update', {
        principal: owner,
        signupId: signup.id,
        id: participant.id,
        input: { phone: null },
      }),
    );
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'phone', message: 'Required' }] });
  });

  it('answers an empty edit with the participant unchanged and emits nothing', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const participant = await registered(owner, signup.id);
    expect(
      await h.stack.bus.request('signups.participants.update', { principal: owner, signupId: signup.id, id: participant.id, input: {} }),
    ).toEqual(participant);
    await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: participant.id });
    await eventually(() => expect(h.eventsFor(participant.id, 'participant.canceled')).toHaveLength(1));
    expect(h.eventsFor(participant.id).map((e) => e.type)).toEqual(['participant.registered', 'participant.canceled']);
  });

  it('answers not_found for a participant of another signup, forbidden to another organization, and names participants:write', async () => {
    const organizationId = newPrefixedId('org');
    const owner = caller({ organizationId });
    const { signup } = await h.signup(owner);
    const other = await h.signup(owner);
    const participant = await registered(owner, signup.id);
    const edit = (principal: Principal, signupId: string) =>
      problemOf(h.stack.bus.request('signups.participants.update', { principal, signupId, id: participant.id, input: { name: 'x' } }));
    expect((await edit(owner, other.signup.id)).code).toBe('not_found');
    expect((await edit(caller(), signup.id)).code).toBe('forbidden');
    expect((await edit(caller({ organizationId, scopes: ['participants:read'] }), signup.id)).detail).toContain('participants:write');
    expect(
      await problemOf(h.stack.bus.request('signups.participants.update', { principal: owner, signupId: signup.id, id: 'x', input: {} })),
    ).toMatchObject({
      errors: [{ path: 'participantId', message: 'Invalid uuid' }],
    });
  });
});

describe('the organizer removing a participant', () => {
  it('answers the participant cancelled, with what it held as its record, frees its places at once and lowers the count', async () => {
    const owner = caller();
    const { signup, slots, items } = await h.signup(owner, potluck);
    const participant = await registered(owner, signup.id, {
      selections: [
        { type: 'slot', id: slots[0]!.id },
        { type: 'item', id: items[0]!.id },
      ],
    });
    const cancelled = await h.stack.bus.request('signups.participants.delete', {
      principal: owner,
      signupId: signup.id,
      id: participant.id,
    });
    expect(cancelled).toEqual({
      ...participant,
      status: 'cancelled',
      cancelledAt: expect.any(String),
      statusChangedAt: cancelled.cancelledAt,
      updatedAt: cancelled.cancelledAt,
    });
    const read = await signupOf(owner, signup.id);
    expect(read.participantCount).toBe(0);
    expect(read.slots![0]!.taken).toBe(0);
    expect(read.items![0]!.quantityClaimed).toBe(0);
    expect((await register(signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }] })).success).toBe(true);
  });

  it('emits participant.canceled and slot.opened for the full slot it freed', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const participant = await registered(owner, signup.id, {
      selections: [
        { type: 'slot', id: slots[0]!.id },
        { type: 'slot', id: slots[1]!.id },
      ],
    });
    await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: participant.id });
    await eventually(() => {
      expect(h.eventsFor(participant.id, 'participant.canceled')).toHaveLength(1);
      expect(h.eventsFor(slots[0]!.id, 'slot.opened')).toHaveLength(1);
    });
    expect(h.eventsFor(participant.id, 'participant.canceled')[0]!.data).toEqual({
      ...participant,
      status: 'cancelled',
      cancelledAt: expect.any(String),
      statusChangedAt: expect.any(String),
      updatedAt: expect.any(String),
      organizationId: owner.organizationId,
      livemode: false,
    });
    expect(h.eventsFor(slots[1]!.id, 'slot.opened')).toEqual([]);
  });

  it('removes participants of a closed signup', async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const participant = await registered(owner, signup.id);
    await h.stack.bus.request('signups.close', { principal: owner, id: signup.id });
    await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: participant.id });
    expect((await signupOf(owner, signup.id)).participantCount).toBe(0);
  });

  it('answers not_found for an unknown participant, also on a signup without any, and keeps the count', async () => {
    const owner = caller();
    const empty = await h.signup(owner);
    expect(
      (await problemOf(h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: empty.signup.id, id: newId() })))
        .code,
    ).toBe('not_found');
    const { signup } = await h.signup(owner);
    await register(signup.id);
    expect(
      (await problemOf(h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: newId() }))).code,
    ).toBe('not_found');
    expect((await signupOf(owner, signup.id)).participantCount).toBe(1);
  });

  it('cancels a participant once when removals race, answering each the cancelled participant', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const participant = await registered(owner, signup.id, { selections: [{ type: 'slot', id: slots[1]!.id, quantity: 2 }] });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: participant.id }),
      ),
    );
    expect(outcomes.map((o) => o.status === 'fulfilled' && o.value.status)).toEqual(Array(8).fill('cancelled'));
    const read = await signupOf(owner, signup.id);
    expect(read.participantCount).toBe(0);
    expect(read.slots![1]!.taken).toBe(0);
    await eventually(() => expect(h.eventsFor(participant.id, 'participant.canceled')).toHaveLength(1));
  });

  it("forbids removing another organization's participant", async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const participant = await registered(owner, signup.id);
    expect(
      (
        await problemOf(
          h.stack.bus.request('signups.participants.delete', { principal: caller(), signupId: signup.id, id: participant.id }),
        )
      ).code,
    ).toBe('forbidden');
    expect((await signupOf(owner, signup.id)).participantCount).toBe(1);
  });
});

describe('deleting a signup with participants', () => {
  it('removes its slots, items and participants with it', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, potluck);
    const { confirmationToken } = await register(signup.id, { selections: [{ type: 'slot', id: slots[0]!.id }] });
    await h.stack.bus.request('signups.delete', { principal: owner, id: signup.id });
    expect((await problemOf(h.stack.bus.request('signups.registrations.get', { token: confirmationToken! }))).code).toBe('not_found');
    const [{ count }] = (await h.app.context.dataSource!.query('SELECT count(*)::int AS count FROM signups.slots WHERE signup_id = $1', [
      signup.id,
    ])) as { count: number }[];
    expect(count).toBe(0);
  });
});
