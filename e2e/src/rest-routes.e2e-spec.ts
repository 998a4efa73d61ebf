import type {
  CalendarFeedCreatedView,
  CalendarFeedView,
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

/** What the gateway's REST routes do with bodies, credentials, query strings and path parameters, against the real services. */
describe('REST routes: bodies, credentials, paging and path parameters', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
  });

  const register = (signupId: string, body: unknown, key?: string) =>
    call<RegistrationResultView & Record<string, unknown>>(`/signups/${signupId}/participants`, { body, ...(key && { key }) });

  describe('slot and item bodies', () => {
    it('validates a bulk slots body against the bulk DTO with indexed paths, storing none of it', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const res = await call(`/signups/${signup.id}/slots`, {
        key: tenant.key,
        body: { slots: [{ title: 'A', capacity: 1 }, { title: '' }] },
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
      expect(res.body.errors).toEqual([
        { path: 'slots.1.title', message: 'Must not be empty' },
        { path: 'slots.1.capacity', message: 'Required' },
      ]);
      expect((await call<{ data: SlotView[] }>(`/signups/${signup.id}/slots`, { key: tenant.key })).body.data).toEqual([]);
    });

    it('validates a single item body against the single DTO, where a bulk field is unknown', async () => {
      const { signup } = await newSignup(tenant.key, { publish: false });
      const res = await call(`/signups/${signup.id}/items`, { key: tenant.key, body: { name: 'Salad', quantityNeeded: 0, slots: [] } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveLength(2);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          { path: 'slots', message: 'Unknown field' },
          { path: 'quantityNeeded', message: 'Must be at least 1' },
        ]),
      );
      expect((await call<{ data: ItemView[] }>(`/signups/${signup.id}/items`, { key: tenant.key })).body.data).toEqual([]);
    });
  });

  describe('POST /signups/{id}/participants', () => {
    it('accepts selection ids in upper case and stores them lower-cased', async () => {
      const { signup, slots } = await newSignup(tenant.key, { slots: [{ title: 'Setup', capacity: 2 }] });
      const slotId = slots[0]!.id;
      const res = await register(signup.id, person([{ type: 'slot', id: slotId.toUpperCase(), quantity: 1 }]));
      expect(res.status).toBe(201);
      expect(res.body.confirmed).toEqual([{ type: 'slot', id: slotId, participantId: expect.any(String) }]);
      const list = await call<Page<ParticipantView>>(`/signups/${signup.id}/participants`, { key: tenant.key });
      expect(list.body.data.map((p) => p.selections)).toEqual([[{ type: 'slot', id: slotId, quantity: 1 }]]);
    });

    it('passes a sent credential on, needing no scope: a live key without write scopes is refused a sandbox signup as not_found', async () => {
      const { signup } = await newSignup(tenant.key);
      const live = await tenant.newKey({ mode: 'live', scopes: 'signups:read' });
      const res = await register(signup.id, person(), live.key);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
      expect((await register(signup.id, person())).status).toBe(201);
      expect((await call<Page<ParticipantView>>(`/signups/${signup.id}/participants`, { key: tenant.key })).body.data).toHaveLength(1);
    });

    it('names an unknown selection type beside the other itemized errors', async () => {
      const { signup } = await newSignup(tenant.key);
      const res = await register(signup.id, { name: 'Ana', email: 'x', selections: [{ type: 'seat', id: 'x', quantity: 0 }] });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        { path: 'email', message: 'Invalid email' },
        { path: 'selections.0.type', message: 'Must be one of: slot, item' },
        { path: 'selections.0.id', message: 'Invalid uuid' },
        { path: 'selections.0.quantity', message: 'Must be at least 1' },
      ]);
    });
  });

  describe('GET /signups/{id}/participants', () => {
    it('accepts a limit of up to 100 and names a larger one', async () => {
      const { signup } = await newSignup(tenant.key);
      await register(signup.id, person());
      const max = await call<Page<ParticipantView>>(`/signups/${signup.id}/participants?limit=100`, { key: tenant.key });
      expect(max.status).toBe(200);
      expect(max.body.data).toHaveLength(1);
      const over = await call(`/signups/${signup.id}/participants?limit=101`, { key: tenant.key });
      expect(over.status).toBe(422);
      expect(over.body.errors).toEqual([{ path: 'limit', message: 'Must be at most 100' }]);
    });

    it('answers the contacts with Cache-Control: no-store', async () => {
      const { signup } = await newSignup(tenant.key);
      await register(signup.id, person());
      const res = await call<Page<ParticipantView>>(`/signups/${signup.id}/participants`, { key: tenant.key });
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });
  });

  describe('/registrations/{confirmationToken}', () => {
    const setup = async () => {
      const fixture = await newSignup(tenant.key, { slots: [{ title: 'Setup', capacity: 2 }] });
      const body = person([{ type: 'slot', id: fixture.slots[0]!.id }], { phone: '+14155550123' });
      const token = (await register(fixture.signup.id, body)).body.confirmationToken!;
      return { ...fixture, body, token };
    };

    it('answers a malformed token with not_found on GET, PATCH and DELETE, leaving the real registration alone', async () => {
      const { token, body } = await setup();
      for (const malformed of ['cnf_short', `${token}a`, `CNF_${token.slice(4)}`]) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          const res = await call(`/registrations/${malformed}`, { method, ...(method === 'PATCH' && { body: { name: 'x' } }) });
          expect({ malformed, method, status: res.status, code: res.body.code }).toEqual({
            malformed,
            method,
            status: 404,
            code: 'not_found',
          });
        }
      }
      const real = await call<RegistrationView>(`/registrations/${token}`);
      expect(real.status).toBe(200);
      expect(real.body.participant.name).toBe(body.name);
    });

    it('answers GET, PATCH and DELETE with no-store and no referrer: the URL is the secret, the answer personal data', async () => {
      const { token } = await setup();
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const res = await call(`/registrations/${token}`, { method, ...(method === 'PATCH' && { body: { name: 'Ana Lima' } }) });
        expect({
          method,
          status: res.status,
          cache: res.headers.get('cache-control'),
          referrer: res.headers.get('referrer-policy'),
        }).toEqual({ method, status: 200, cache: 'no-store', referrer: 'no-referrer' });
      }
    });

    it('forwards a well-formed token without a credential: PATCH clears the phone with null and every selection with []', async () => {
      const { signup, slots, token } = await setup();
      const res = await call<RegistrationView>(`/registrations/${token}`, { method: 'PATCH', body: { phone: null, selections: [] } });
      expect(res.status).toBe(200);
      expect(res.body.participant).toMatchObject({ phone: null, selections: [] });
      const slot = (await call<{ data: SlotView[] }>(`/signups/${signup.id}/slots`, { key: tenant.key })).body.data[0]!;
      expect(slot).toMatchObject({ id: slots[0]!.id, taken: 0, remaining: 2 });
    });
  });

  describe('/calendar-feed', () => {
    it('makes a feed with 201 and no-store, and replays an Idempotency-Key with the same address instead of rotating', async () => {
      const owner = await newTenant('pro');
      const headers = { 'idempotency-key': crypto.randomUUID() };
      const first = await call<CalendarFeedCreatedView>('/calendar-feed', { key: owner.key, method: 'POST', headers });
      expect(first.status).toBe(201);
      expect(first.headers.get('cache-control')).toBe('no-store');
      const replay = await call<CalendarFeedCreatedView>('/calendar-feed', { key: owner.key, method: 'POST', headers });
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.url).toBe(first.body.url);
      expect((await fetch(first.body.url)).status).toBe(200);
    });

    it('takes no body: an empty object is fine, a field is refused as unknown, and the feed stays as it was', async () => {
      const owner = await newTenant('pro');
      const made = await call<CalendarFeedCreatedView>('/calendar-feed', { key: owner.key, body: {} });
      expect(made.status).toBe(201);
      for (const method of ['POST', 'DELETE']) {
        const res = await call('/calendar-feed', { key: owner.key, method, body: { rotate: true } });
        expect({ method, status: res.status, errors: res.body.errors }).toEqual({
          method,
          status: 422,
          errors: [{ path: 'rotate', message: 'Unknown field' }],
        });
      }
      expect((await call<CalendarFeedView>('/calendar-feed', { key: owner.key })).body.createdAt).toBe(made.body.createdAt);
      expect((await fetch(made.body.url)).status).toBe(200);
      expect((await call('/calendar-feed', { key: owner.key, method: 'DELETE', body: {} })).status).toBe(204);
    });
  });

  describe('/public/signups/{slugOrId}', () => {
    it('answers a malformed slug with not_found, even a real slug in upper case', async () => {
      const { signup } = await newSignup(tenant.key);
      for (const slug of ['Has-Upper', 'a'.repeat(61), 'sp ace', 'dot.ted', signup.slug.toUpperCase()]) {
        const res = await call(`/public/signups/${encodeURIComponent(slug)}`);
        expect({ slug, status: res.status, code: res.body.code }).toEqual({ slug, status: 404, code: 'not_found' });
      }
    });

    it('finds a signup by its id in upper case, as by its slug', async () => {
      const { signup } = await newSignup(tenant.key);
      const bySlug = await call<PublicSignupView>(`/public/signups/${signup.slug}`);
      const byUpperId = await call<PublicSignupView>(`/public/signups/${signup.id.toUpperCase()}`);
      expect(byUpperId.status).toBe(200);
      expect(byUpperId.body).toEqual(bySlug.body);
      expect(byUpperId.body.id).toBe(signup.id);
    });
  });
});
