import type {
  AnalyticsView,
  ItemView,
  ParticipantView,
  PublicSignupView,
  RegistrationResultView,
  RegistrationView,
  SlotView,
} from '#libs/contracts';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person } from './support/signups.js';

type Page<T> = { data: T[]; nextCursor: string | null };
const MISSING_ID = '0190a0b2-7a3c-7def-8a12-1234567890ab';
const PHONE_MESSAGE = 'Invalid phone number: use the international format without an extension, e.g. +14155550123';

describe('slots, items, participants and registrations over REST', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
  });

  /** Registers as the tenant's key unless `key` is null (anonymous). */
  const register = (signupId: string, body: unknown, key: string | null = null) =>
    call<RegistrationResultView & Record<string, unknown>>(`/signups/${signupId}/participants`, { body, ...(key && { key }) });

  const slotOf = async (signupId: string, slotId: string) =>
    (await call<{ data: SlotView[] }>(`/signups/${signupId}/slots`, { key: tenant.key })).body.data.find((s) => s.id === slotId)!;

  describe('slots', () => {
    it('adds one slot and answers it with what remains', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const res = await call<SlotView>(`/signups/${signup.id}/slots`, {
        key: tenant.key,
        body: { title: 'Setup', description: 'Tables', startTime: '2027-06-01T16:00:00Z', endTime: '2027-06-01T17:00:00Z', capacity: 3 },
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        title: 'Setup',
        description: 'Tables',
        startTime: '2027-06-01T16:00:00.000Z',
        endTime: '2027-06-01T17:00:00.000Z',
        capacity: 3,
        taken: 0,
        remaining: 3,
        livemode: false,
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    });

    it('adds several at once with {slots} and answers {data}; lists them', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const res = await call<{ data: SlotView[] }>(`/signups/${signup.id}/slots`, {
        key: tenant.key,
        body: {
          slots: [
            { title: 'A', capacity: 1 },
            { title: 'B', capacity: 2 },
          ],
        },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.map((s) => [s.title, s.capacity, s.remaining])).toEqual([
        ['A', 1, 1],
        ['B', 2, 2],
      ]);
      const list = await call<{ data: SlotView[] }>(`/signups/${signup.id}/slots`, { key: tenant.key });
      expect(list.status).toBe(200);
      expect(list.body).toEqual({ data: res.body.data });
    });

    it('itemizes a bad slot in a bulk body by index', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const res = await call(`/signups/${signup.id}/slots`, {
        key: tenant.key,
        body: {
          slots: [
            { title: 'A', capacity: 1 },
            { title: 'B', capacity: 0 },
          ],
        },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ path: 'slots.1.capacity', message: 'Must be at least 1' }]);
    });

    it('edits a slot', async () => {
      const { signup, slots } = await newSignup(tenant.key, { publish: false, slots: [{ title: 'A', capacity: 2 }] });
      const res = await call<SlotView>(`/signups/${signup.id}/slots/${slots[0]!.id}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { title: 'Renamed', capacity: 5 },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: slots[0]!.id, title: 'Renamed', capacity: 5, remaining: 5 });
    });

    it('refuses to drop capacity below what is taken with 409 conflict', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'A', capacity: 3 }] });
      expect((await register(signup.id, person([{ type: 'slot', id: slots[0]!.id, quantity: 2 }]), tenant.key)).status).toBe(201);
      const res = await call(`/signups/${signup.id}/slots/${slots[0]!.id}`, { key: tenant.key, method: 'PATCH', body: { capacity: 1 } });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'conflict' });
      expect(
        (await call(`/signups/${signup.id}/slots/${slots[0]!.id}`, { key: tenant.key, method: 'PATCH', body: { capacity: 2 } })).status,
      ).toBe(200);
    });

    it('deletes a slot with 200 and the deleted slot; a slot with registrations is a 409', async () => {
      const { signup, slots } = await newSignup(tenant.key, {
        slots: [
          { title: 'Free', capacity: 1 },
          { title: 'Taken', capacity: 1 },
        ],
      });
      const [free, taken] = slots as [SlotView, SlotView];
      await register(signup.id, person([{ type: 'slot', id: taken.id }]), tenant.key);
      const res = await call<SlotView>(`/signups/${signup.id}/slots/${free.id}`, { key: tenant.key, method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(free);
      expect((await call(`/signups/${signup.id}/slots/${free.id}`, { key: tenant.key, method: 'DELETE' })).status).toBe(404);
      const busy = await call(`/signups/${signup.id}/slots/${taken.id}`, { key: tenant.key, method: 'DELETE' });
      expect(busy.status).toBe(409);
      expect(busy.body).toMatchObject({ code: 'conflict' });
    });

    it('refuses new slots on a closed signup with 409', async () => {
      const { signup } = await newSignup(tenant.key);
      await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' });
      const res = await call(`/signups/${signup.id}/slots`, { key: tenant.key, body: { title: 'Late', capacity: 1 } });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'conflict' });
    });

    it('answers an unknown slot with not_found and a malformed one with Invalid uuid on slotId', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const missing = await call(`/signups/${signup.id}/slots/${MISSING_ID}`, { key: tenant.key, method: 'PATCH', body: { title: 'x' } });
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 'not_found' });
      const malformed = await call(`/signups/${signup.id}/slots/nope`, { key: tenant.key, method: 'DELETE' });
      expect(malformed.status).toBe(422);
      expect(malformed.body.errors).toEqual([{ path: 'slotId', message: 'Invalid uuid' }]);
    });

    it("forbids changing another organization's published signup's slots", async () => {
      const other = await newTenant('pro');
      const { signup, slots } = await newSignup(other.key, { slots: [{ title: 'A', capacity: 1 }] });
      const res = await call(`/signups/${signup.id}/slots/${slots[0]!.id}`, { key: tenant.key, method: 'PATCH', body: { title: 'x' } });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden' });
    });
  });

  describe('items', () => {
    it('adds one item or several, lists, edits and deletes them', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const one = await call<ItemView>(`/signups/${signup.id}/items`, {
        key: tenant.key,
        body: { name: 'Salad', notes: 'Vegan', quantityNeeded: 2 },
      });
      expect(one.status).toBe(201);
      expect(one.body).toEqual({
        id: expect.any(String),
        name: 'Salad',
        notes: 'Vegan',
        quantityNeeded: 2,
        quantityClaimed: 0,
        remaining: 2,
        livemode: false,
      });
      const many = await call<{ data: ItemView[] }>(`/signups/${signup.id}/items`, {
        key: tenant.key,
        body: { items: [{ name: 'Cups', quantityNeeded: 50 }] },
      });
      expect(many.status).toBe(201);
      expect(many.body.data).toEqual([expect.objectContaining({ name: 'Cups', quantityNeeded: 50, remaining: 50 })]);
      expect((await call<{ data: ItemView[] }>(`/signups/${signup.id}/items`, { key: tenant.key })).body.data.map((i) => i.name)).toEqual([
        'Salad',
        'Cups',
      ]);
      const edited = await call<ItemView>(`/signups/${signup.id}/items/${one.body.id}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { notes: null, quantityNeeded: 3 },
      });
      expect(edited.status).toBe(200);
      expect(edited.body).toMatchObject({ notes: null, quantityNeeded: 3, remaining: 3 });
      const deleted = await call<ItemView>(`/signups/${signup.id}/items/${one.body.id}`, { key: tenant.key, method: 'DELETE' });
      expect(deleted.status).toBe(200);
      expect(deleted.body.id).toBe(one.body.id);
    });

    it('refuses to drop quantityNeeded below what is claimed with 409 conflict', async () => {
      const { signup, items } = await newSignup(tenant.key, { items: [{ name: 'Chairs', quantityNeeded: 10 }] });
      await register(signup.id, person([{ type: 'item', id: items[0]!.id, quantity: 4 }]), tenant.key);
      const res = await call(`/signups/${signup.id}/items/${items[0]!.id}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { quantityNeeded: 3 },
      });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'conflict' });
    });
  });

  describe('registration (no credential needed)', () => {
    it('stores a participant and answers 201 with the confirmation token and what was confirmed', async () => {
      const { signup, slots, items } = await newSignup(tenant.key, {
        slots: [{ title: 'Setup', capacity: 3 }],
        items: [{ name: 'Salad', quantityNeeded: 2 }],
      });
      const res = await register(
        signup.id,
        person([
          { type: 'slot', id: slots[0]!.id },
          { type: 'item', id: items[0]!.id, quantity: 2 },
        ]),
      );
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        success: true,
        confirmationToken: expect.stringMatching(/^cnf_[0-9A-Za-z]{32}$/),
        confirmed: [
          { type: 'slot', id: slots[0]!.id, participantId: expect.any(String) },
          { type: 'item', id: items[0]!.id, participantId: expect.any(String) },
        ],
        failed: [],
        waitlisted: [],
      });
      expect(res.body.confirmed[0]!.participantId).toBe(res.body.confirmed[1]!.participantId);
      expect(await slotOf(signup.id, slots[0]!.id)).toMatchObject({ taken: 1, remaining: 2 });
    });

    it('stores a participant with no selections', async () => {
      const { signup } = await newSignup(tenant.key);
      const res = await register(signup.id, person([]));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ success: true, confirmed: [], failed: [], confirmationToken: expect.stringMatching(/^cnf_/) });
    });

    it('confirms what it can and reports the rest as failed (partial success)', async () => {
      const { signup, slots, items } = await newSignup(tenant.key, {
        slots: [{ title: 'Small', capacity: 1 }],
        items: [{ name: 'Cups', quantityNeeded: 5 }],
      });
      const res = await register(
        signup.id,
        person([
          { type: 'slot', id: slots[0]!.id, quantity: 2 },
          { type: 'item', id: items[0]!.id },
          { type: 'item', id: MISSING_ID },
        ]),
      );
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(false);
      expect(res.body.confirmationToken).toMatch(/^cnf_/);
      expect(res.body.confirmed).toEqual([{ type: 'item', id: items[0]!.id, participantId: expect.any(String) }]);
      expect(res.body.failed).toEqual([
        { type: 'slot', id: slots[0]!.id, reason: 'full', message: expect.any(String) },
        { type: 'item', id: MISSING_ID, reason: 'not_found', message: expect.any(String) },
      ]);
    });

    it('stores nothing and answers 200 without a token when every selection fails', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'One', capacity: 1 }] });
      expect((await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]), tenant.key)).status).toBe(201);
      const res = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: false,
        confirmed: [],
        failed: [{ type: 'slot', id: slots[0]!.id, reason: 'full', message: expect.any(String) }],
        waitlisted: [],
      });
      const list = await call<Page<ParticipantView>>(`/signups/${signup.id}/participants`, { key: tenant.key });
      expect(list.body.data).toHaveLength(1);
    });

    it('never takes more than capacity under concurrent registrations', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'Last places', capacity: 3 }] });
      const results = await Promise.all(
        Array.from({ length: 8 }, () => register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]), tenant.key)),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(3);
      expect(results.filter((r) => r.status === 200)).toHaveLength(5);
      expect(await slotOf(signup.id, slots[0]!.id)).toMatchObject({ taken: 3, remaining: 0 });
    });

    it('answers an unknown signup with not_found', async () => {
      const res = await register(MISSING_ID, person([]));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    });

    it('requires a phone when the signup does', async () => {
      const { signup } = await newSignup(tenant.key, { fields: { requiresPhone: true } });
      const res = await register(signup.id, person([]));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'phone', message: 'Required' }] });
      expect((await register(signup.id, person([], { phone: '+14155550123' }))).status).toBe(201);
    });

    it('explains a phone that is not in international format', async () => {
      const { signup } = await newSignup(tenant.key);
      const res = await register(signup.id, person([], { phone: '555-0123' }));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ path: 'phone', message: PHONE_MESSAGE }]);
    });

    it('refuses an email that is not an address, and itemizes bad selections', async () => {
      const { signup } = await newSignup(tenant.key);
      const res = await register(signup.id, { name: '', email: 'nobody', selections: [{ type: 'slot', id: 'x', quantity: 0 }] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        { path: 'name', message: 'Must not be empty' },
        { path: 'email', message: 'Invalid email' },
        { path: 'selections.0.id', message: 'Invalid uuid' },
        { path: 'selections.0.quantity', message: 'Must be at least 1' },
      ]);
    });

    it('hides a draft from anonymous callers (404) and tells its own organization it is not open (400)', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const anonymous = await register(signup.id, person([]));
      expect(anonymous.status).toBe(404);
      expect(anonymous.body).toMatchObject({ code: 'not_found' });
      const own = await register(signup.id, person([]), tenant.key);
      expect(own.status).toBe(400);
      expect(own.body).toMatchObject({ code: 'bad_request' });
    });

    it('refuses registrations on a closed signup with 400 bad_request', async () => {
      const { signup } = await newSignup(tenant.key);
      await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' });
      const res = await register(signup.id, person([]));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request', detail: expect.any(String) });
    });

    it('refuses registrations once maxParticipants is reached', async () => {
      const { signup } = await newSignup(tenant.key, { fields: { maxParticipants: 1 } });
      expect((await register(signup.id, person([]), tenant.key)).status).toBe(201);
      const res = await register(signup.id, person([]));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'bad_request' });
    });

    it('refuses a bad credential even though none is needed', async () => {
      const { signup } = await newSignup(tenant.key);
      const res = await register(signup.id, person([]), `sgn_test_${'0'.repeat(32)}`);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'invalid_credentials' });
    });
  });

  describe('participants (organizer)', () => {
    it('lists participants newest first with contacts, paged by cursor', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'A', capacity: 10 }] });
      const names: string[] = [];
      for (let i = 0; i < 3; i++) {
        const body = person([{ type: 'slot', id: slots[0]!.id }], { phone: '+14155550123' });
        names.push(body.name);
        await register(signup.id, body, tenant.key);
      }
      const first = await call<Page<ParticipantView>>(`/signups/${signup.id}/participants?limit=2`, { key: tenant.key });
      expect(first.status).toBe(200);
      expect(first.body.data).toHaveLength(2);
      expect(first.body.data[0]).toEqual({
        id: expect.any(String),
        signupId: signup.id,
        name: names[2],
        email: expect.stringContaining('@example.com'),
        phone: '+14155550123',
        selections: [{ type: 'slot', id: slots[0]!.id, quantity: 1 }],
        answers: {},
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        remindedAt: null,
        status: 'confirmed',
        statusChangedAt: expect.any(String),
        cancelledAt: null,
        checkedInAt: null,
        noShowAt: null,
        hoursServed: null,
        waitlist: [],
        livemode: false,
      });
      const second = await call<Page<ParticipantView>>(`/signups/${signup.id}/participants?limit=2&cursor=${first.body.nextCursor}`, {
        key: tenant.key,
      });
      expect(second.body.data.map((p) => p.name)).toEqual([names[0]]);
      expect(second.body.nextCursor).toBeNull();
      expect([...first.body.data, ...second.body.data].map((p) => p.name)).toEqual([...names].reverse());
    });

    it('validates limit and cursor', async () => {
      const { signup } = await newSignup(tenant.key);
      expect((await call(`/signups/${signup.id}/participants?limit=0`, { key: tenant.key })).body.errors).toEqual([
        expect.objectContaining({ path: 'limit' }),
      ]);
      expect((await call(`/signups/${signup.id}/participants?cursor=garbage`, { key: tenant.key })).body.errors).toEqual([
        expect.objectContaining({ path: 'cursor' }),
      ]);
    });

    it('edits a participant, re-allocating selections', async () => {
      const { signup, slots } = await newSignup(tenant.key, {
        slots: [
          { title: 'A', capacity: 2 },
          { title: 'B', capacity: 2 },
        ],
      });
      const [a, b] = slots as [SlotView, SlotView];
      const registered = await register(signup.id, person([{ type: 'slot', id: a.id }]), tenant.key);
      const participantId = registered.body.confirmed[0]!.participantId;
      const res = await call<ParticipantView>(`/signups/${signup.id}/participants/${participantId}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { name: 'Renamed', email: 'renamed@example.com', selections: [{ type: 'slot', id: b.id, quantity: 2 }] },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: participantId,
        name: 'Renamed',
        email: 'renamed@example.com',
        selections: [{ type: 'slot', id: b.id, quantity: 2 }],
      });
      expect(await slotOf(signup.id, a.id)).toMatchObject({ taken: 0, remaining: 2 });
      expect(await slotOf(signup.id, b.id)).toMatchObject({ taken: 2, remaining: 0 });
    });

    it('cancels a participant with 200 and the cancelled participant, freeing their places; a second DELETE answers the same', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'A', capacity: 2 }] });
      const registered = await register(signup.id, person([{ type: 'slot', id: slots[0]!.id, quantity: 2 }]), tenant.key);
      const participantId = registered.body.confirmed[0]!.participantId;
      const res = await call<ParticipantView>(`/signups/${signup.id}/participants/${participantId}`, { key: tenant.key, method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: participantId, signupId: signup.id, status: 'cancelled', cancelledAt: expect.any(String) });
      expect(await slotOf(signup.id, slots[0]!.id)).toMatchObject({ taken: 0, remaining: 2 });
      const again = await call<ParticipantView>(`/signups/${signup.id}/participants/${participantId}`, {
        key: tenant.key,
        method: 'DELETE',
      });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      expect(await slotOf(signup.id, slots[0]!.id)).toMatchObject({ taken: 0, remaining: 2 });
    });

    it("answers slots, items and participants with their signup's mode: true for a live key, false for a sandbox key", async () => {
      const live = await tenant.newKey({ mode: 'live' });
      for (const [key, livemode] of [
        [tenant.key, false],
        [live.key, true],
      ] as const) {
        const { signup, slots, items } = await newSignup(key, {
          slots: [{ title: 'A', capacity: 2 }],
          items: [{ name: 'Cups', quantityNeeded: 2 }],
        });
        await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]), key);
        const [participant] = (await call<Page<ParticipantView>>(`/signups/${signup.id}/participants`, { key })).body.data;
        const [slot] = (await call<{ data: SlotView[] }>(`/signups/${signup.id}/slots`, { key })).body.data;
        expect({ livemode, slot: slot!.livemode, item: items[0]!.livemode, participant: participant!.livemode }).toEqual({
          livemode,
          slot: livemode,
          item: livemode,
          participant: livemode,
        });
      }
    });

    it("forbids reading another organization's participants", async () => {
      const other = await newTenant('pro');
      const { signup } = await newSignup(other.key);
      const res = await call(`/signups/${signup.id}/participants`, { key: tenant.key });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden' });
    });
  });

  describe('by confirmation token (no credential)', () => {
    const setup = async () => {
      const fixture = await newSignup(tenant.key, {
        slots: [
          { title: 'A', capacity: 2 },
          { title: 'B', capacity: 2 },
        ],
      });
      const body = person([{ type: 'slot', id: fixture.slots[0]!.id }]);
      const token = (await register(fixture.signup.id, body)).body.confirmationToken!;
      return { ...fixture, token, body };
    };

    it('reads the registration with its signup', async () => {
      const { signup, slots, token, body } = await setup();
      const res = await call<RegistrationView>(`/registrations/${token}`);
      expect(res.status).toBe(200);
      expect(res.body.participant).toMatchObject({
        name: body.name,
        email: body.email,
        selections: [{ type: 'slot', id: slots[0]!.id, quantity: 1 }],
      });
      expect(res.body.signup).toMatchObject({ id: signup.id, slug: signup.slug, title: signup.title, status: 'published' });
    });

    it('changes name, phone and selections', async () => {
      const { signup, slots, token } = await setup();
      const [a, b] = slots as [SlotView, SlotView];
      const res = await call<RegistrationView>(`/registrations/${token}`, {
        method: 'PATCH',
        body: { name: 'New name', phone: '+14155550123', selections: [{ type: 'slot', id: b.id, quantity: 2 }] },
      });
      expect(res.status).toBe(200);
      expect(res.body.participant).toMatchObject({
        name: 'New name',
        phone: '+14155550123',
        selections: [{ type: 'slot', id: b.id, quantity: 2 }],
      });
      expect(await slotOf(signup.id, a.id)).toMatchObject({ remaining: 2 });
      expect(await slotOf(signup.id, b.id)).toMatchObject({ remaining: 0 });
    });

    it('validates a change like a registration', async () => {
      const { token } = await setup();
      const res = await call(`/registrations/${token}`, { method: 'PATCH', body: { phone: 'call me', email: 'x@example.com' } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { path: 'phone', message: PHONE_MESSAGE },
          { path: 'email', message: 'Unknown field' },
        ]),
      );
    });

    it('cancels, freeing capacity; the token then reads the cancelled registration', async () => {
      const { signup, slots, token } = await setup();
      expect(await slotOf(signup.id, slots[0]!.id)).toMatchObject({ remaining: 1 });
      const res = await call<RegistrationView>(`/registrations/${token}`, { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(res.body.signup.id).toBe(signup.id);
      expect(await slotOf(signup.id, slots[0]!.id)).toMatchObject({ taken: 0, remaining: 2 });
      const read = await call<RegistrationView>(`/registrations/${token}`);
      expect(read.status).toBe(200);
      expect(read.body.participant).toEqual(res.body.participant);
      expect(read.body.participant).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) });
    });

    it.each([`cnf_${'0'.repeat(32)}`, 'cnf_short', 'not-a-token'])('answers the token %j with not_found', async (token) => {
      for (const method of ['GET', 'DELETE']) {
        const res = await call(`/registrations/${token}`, { method });
        expect({ method, status: res.status, code: res.body.code }).toEqual({ method, status: 404, code: 'not_found' });
      }
    });
  });

  describe('public view (no credential)', () => {
    it('shows a published signup by slug or id with what remains, never who signed up', async () => {
      const { signup, slots } = await newSignup(tenant.key, {
        fields: { maxParticipants: 10 },
        slots: [{ title: 'A', capacity: 2 }],
        items: [{ name: 'Cups', quantityNeeded: 3 }],
      });
      const body = person([{ type: 'slot', id: slots[0]!.id }], { phone: '+14155550123' });
      await register(signup.id, body);
      const bySlug = await call<PublicSignupView>(`/public/signups/${signup.slug}`);
      expect(bySlug.status).toBe(200);
      expect(bySlug.body).toMatchObject({
        id: signup.id,
        slug: signup.slug,
        title: signup.title,
        status: 'published',
        acceptingRegistrations: true,
        spotsRemaining: 9,
        publicUrl: signup.publicUrl,
        livemode: false,
        slots: [expect.objectContaining({ id: slots[0]!.id, taken: 1, remaining: 1 })],
        items: [expect.objectContaining({ name: 'Cups', remaining: 3 })],
      });
      const text = JSON.stringify(bySlug.body);
      for (const secret of [body.name, body.email, body.phone]) expect(text).not.toContain(secret);
      expect((await call(`/public/signups/${signup.id}`)).body).toEqual(bySlug.body);
    });

    it('hides drafts and anything that is not a slug or id', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      for (const slugOrId of [signup.slug, signup.id, 'Not_A_Slug', 'no-such-signup-zz']) {
        const res = await call(`/public/signups/${slugOrId}`);
        expect({ slugOrId, status: res.status, code: res.body.code }).toEqual({ slugOrId, status: 404, code: 'not_found' });
      }
    });

    it('shows a closed signup as not accepting registrations', async () => {
      const { signup } = await newSignup(tenant.key);
      await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' });
      expect((await call<PublicSignupView>(`/public/signups/${signup.slug}`)).body).toMatchObject({
        status: 'closed',
        acceptingRegistrations: false,
      });
    });
  });

  describe('analytics', () => {
    it('computes fill rates, gaps and response times live', async () => {
      const { signup, slots, items } = await newSignup(tenant.key, {
        slots: [{ title: 'A', capacity: 4 }],
        items: [{ name: 'Cups', quantityNeeded: 2 }],
      });
      await register(
        signup.id,
        person([
          { type: 'slot', id: slots[0]!.id },
          { type: 'item', id: items[0]!.id, quantity: 2 },
        ]),
        tenant.key,
      );
      await register(signup.id, person([{ type: 'slot', id: slots[0]!.id }]), tenant.key);
      const res = await call<AnalyticsView>(`/signups/${signup.id}/analytics`, { key: tenant.key });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        signupId: signup.id,
        participantCount: 2,
        quantityCommitted: 4,
        fillRate: { capacity: 6, ratio: expect.closeTo(4 / 6, 3) },
        slots: [{ id: slots[0]!.id, title: 'A', capacity: 4, registered: 2, ratio: 0.5, waiting: 0 }],
        items: [{ id: items[0]!.id, name: 'Cups', needed: 2, claimed: 2, ratio: 1, waiting: 0 }],
        gaps: [{ kind: 'slot', id: slots[0]!.id, label: 'A', shortBy: 2 }],
        responseTime: {
          firstRegistrationAt: expect.any(String),
          lastRegistrationAt: expect.any(String),
          averageHoursBetweenRegistrations: expect.any(Number),
        },
        waitlist: { waiting: 0, promotions: 0, offersExpired: 0 },
        attendanceRate: null,
        attendance: { attended: 0, noShow: 0, unmarked: 2 },
        registrationsByDay: [{ date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), count: 2 }],
      });
    });
  });

  describe('scopes', () => {
    it.each([
      ['POST', '/slots', { title: 'x', capacity: 1 }, 'signups:write'],
      ['GET', '/slots', undefined, 'signups:read'],
      ['PATCH', `/slots/${MISSING_ID}`, { title: 'x' }, 'signups:write'],
      ['DELETE', `/slots/${MISSING_ID}`, undefined, 'signups:write'],
      ['POST', '/items', { name: 'x', quantityNeeded: 1 }, 'signups:write'],
      ['GET', '/items', undefined, 'signups:read'],
      ['PATCH', `/items/${MISSING_ID}`, { name: 'x' }, 'signups:write'],
      ['DELETE', `/items/${MISSING_ID}`, undefined, 'signups:write'],
      ['GET', '/participants', undefined, 'participants:read'],
      ['PATCH', `/participants/${MISSING_ID}`, { name: 'x' }, 'participants:write'],
      ['DELETE', `/participants/${MISSING_ID}`, undefined, 'participants:write'],
      ['GET', '/analytics', undefined, 'analytics:read'],
    ])('%s /signups/{id}%s needs %s', async (method, path, body, scope) => {
      const { signup } = await newSignup(tenant.key);
      const narrow = await tenant.newKey({ scopes: 'register:write' });
      const res = await call(`/signups/${signup.id}${path}`, { key: narrow.key, method, body });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'scope_required', detail: expect.stringContaining(scope) });
      expect(res.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
    });

    it('needs no scope to register', async () => {
      const { signup } = await newSignup(tenant.key);
      const narrow = await tenant.newKey({ scopes: 'signups:read' });
      expect((await register(signup.id, person([]), narrow.key)).status).toBe(201);
    });
  });
});
