import type { SignupView } from '#libs/contracts';
import { call, newTenant, signupBody, type Tenant } from './support/api.js';

type Page = { data: SignupView[]; nextCursor: string | null };

describe('signups over REST', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
  });

  const create = async (key: string, overrides: Record<string, unknown> = {}) => {
    const res = await call<SignupView>('/signups', { key, body: signupBody(overrides) });
    expect(res.status).toBe(201);
    return res.body;
  };

  describe('create', () => {
    it('creates a draft with a slug from the title plus a short suffix', async () => {
      const res = await call<SignupView>('/signups', {
        key: tenant.key,
        body: {
          title: 'Summer BBQ!',
          eventDate: '2027-07-04T17:00:00Z',
          description: 'Bring a dish',
          location: 'Park',
          maxParticipants: 40,
          requiresPhone: true,
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        title: 'Summer BBQ!',
        status: 'draft',
        description: 'Bring a dish',
        location: 'Park',
        maxParticipants: 40,
        requiresPhone: true,
        eventDate: '2027-07-04T17:00:00.000Z',
        organizationId: tenant.organization.id,
        livemode: false,
        participantCount: 0,
        publishedAt: null,
        closedAt: null,
      });
      expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.body.slug).toMatch(/^summer-bbq-[a-z0-9]{6}$/);
      expect(res.body.publicUrl).toMatch(new RegExp(`/s/${res.body.slug}$`));
    });

    it('says Required for each missing required field', async () => {
      const res = await call('/signups', { key: tenant.key, body: {} });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        code: 'validation_failed',
        errors: [
          { path: 'title', message: 'Required' },
          { path: 'eventDate', message: 'Required' },
        ],
      });
    });

    it('names an empty title, a bad date and wrong types', async () => {
      const res = await call('/signups', {
        key: tenant.key,
        body: { title: '', eventDate: 'tomorrow', maxParticipants: 'ten', requiresPhone: 'yes' },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([
        { path: 'title', message: 'Must not be empty' },
        { path: 'eventDate', message: expect.stringContaining('Invalid datetime') },
        { path: 'maxParticipants', message: 'Expected integer' },
        { path: 'requiresPhone', message: 'Expected boolean' },
      ]);
    });

    it('refuses unknown fields and malformed JSON', async () => {
      const unknown = await call('/signups', { key: tenant.key, body: signupBody({ status: 'published' }) });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors).toEqual([{ path: 'status', message: 'Unknown field' }]);
      const malformed = await call('/signups', { key: tenant.key, body: '{"title":' });
      expect(malformed.status).toBe(422);
      expect(malformed.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'body', message: 'Malformed JSON' }] });
    });
  });

  describe('read, edit, delete', () => {
    it('reads a signup with its slots and items', async () => {
      const signup = await create(tenant.key);
      const res = await call<SignupView>(`/signups/${signup.id}`, { key: tenant.key });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: signup.id, slots: [], items: [] });
    });

    it('answers a malformed id with Invalid uuid on the parameter', async () => {
      const res = await call('/signups/not-a-uuid', { key: tenant.key });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'id', message: 'Invalid uuid' }] });
    });

    it('answers an absent id with not_found', async () => {
      const res = await call('/signups/0190a0b2-7a3c-7def-8a12-1234567890ab', { key: tenant.key });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    });

    it('edits fields and clears a nullable one with null', async () => {
      const signup = await create(tenant.key, { location: 'Hall' });
      const res = await call<SignupView>(`/signups/${signup.id}`, {
        key: tenant.key,
        method: 'PATCH',
        body: { title: 'Renamed', location: null },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ title: 'Renamed', location: null, slug: signup.slug });
    });

    it('refuses to clear a required field', async () => {
      const signup = await create(tenant.key);
      const res = await call(`/signups/${signup.id}`, { key: tenant.key, method: 'PATCH', body: { title: null } });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'title' })]);
    });

    it('deletes a signup with 204, after which it is not found', async () => {
      const signup = await create(tenant.key);
      const res = await call(`/signups/${signup.id}`, { key: tenant.key, method: 'DELETE' });
      expect(res.status).toBe(204);
      expect((await call(`/signups/${signup.id}`, { key: tenant.key })).status).toBe(404);
    });
  });

  describe('states', () => {
    it('publishes a draft, and publishing again is a no-op', async () => {
      const signup = await create(tenant.key);
      const first = await call<SignupView>(`/signups/${signup.id}/publish`, { key: tenant.key, method: 'POST' });
      expect(first.status).toBe(200);
      expect(first.body.status).toBe('published');
      expect(first.body.publishedAt).toEqual(expect.any(String));
      const again = await call<SignupView>(`/signups/${signup.id}/publish`, { key: tenant.key, method: 'POST' });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ status: 'published', publishedAt: first.body.publishedAt });
    });

    it('closes a published signup; publishing or editing it then is a 409 conflict', async () => {
      const signup = await create(tenant.key);
      await call(`/signups/${signup.id}/publish`, { key: tenant.key, method: 'POST' });
      const closed = await call<SignupView>(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' });
      expect(closed.status).toBe(200);
      expect(closed.body.status).toBe('closed');
      expect((await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' })).status).toBe(200);
      const publish = await call(`/signups/${signup.id}/publish`, { key: tenant.key, method: 'POST' });
      expect(publish.status).toBe(409);
      expect(publish.body).toMatchObject({ code: 'conflict' });
      const edit = await call(`/signups/${signup.id}`, { key: tenant.key, method: 'PATCH', body: { title: 'x' } });
      expect(edit.status).toBe(409);
    });

    it('refuses to close a draft with 409 conflict', async () => {
      const signup = await create(tenant.key);
      const res = await call(`/signups/${signup.id}/close`, { key: tenant.key, method: 'POST' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'conflict' });
    });
  });

  describe('lists', () => {
    it('pages through every signup newest event first with opaque cursors', async () => {
      const own = await newTenant('pro');
      const dates = ['2027-01-01', '2027-03-01', '2027-02-01', '2027-05-01', '2027-04-01'];
      for (const d of dates) await create(own.key, { eventDate: `${d}T10:00:00Z`, title: d });
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: { status: number; body: Page } = await call<Page>(`/signups?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
          key: own.key,
        });
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...res.body.data.map((s) => s.title));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(['2027-05-01', '2027-04-01', '2027-03-01', '2027-02-01', '2027-01-01']);
    });

    it('filters by status', async () => {
      const own = await newTenant('pro');
      const a = await create(own.key);
      await create(own.key);
      await call(`/signups/${a.id}/publish`, { key: own.key, method: 'POST' });
      const res = await call<Page>('/signups?status=published', { key: own.key });
      expect(res.body.data.map((s) => s.id)).toEqual([a.id]);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['cursor=garbage', 'cursor'],
      ['status=open', 'status'],
    ])('answers ?%s with validation_failed on %s', async (query, path) => {
      const res = await call(`/signups?${query}`, { key: tenant.key });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([expect.objectContaining({ path })]);
    });
  });

  describe('tenancy and modes', () => {
    it("hides another organization's draft as not_found", async () => {
      const other = await newTenant('pro');
      const draft = await create(other.key);
      for (const [path, method] of [
        [``, 'GET'],
        [``, 'PATCH'],
        [`/publish`, 'POST'],
        [``, 'DELETE'],
      ] as const) {
        const res = await call(`/signups/${draft.id}${path}`, {
          key: tenant.key,
          method,
          ...(method === 'PATCH' && { body: { title: 'x' } }),
        });
        expect({ path, method, status: res.status, code: res.body?.code }).toEqual({ path, method, status: 404, code: 'not_found' });
      }
    });

    it("lets anyone read another organization's published signup but forbids changing it", async () => {
      const other = await newTenant('pro');
      const signup = await create(other.key);
      await call(`/signups/${signup.id}/publish`, { key: other.key, method: 'POST' });
      expect((await call(`/signups/${signup.id}`, { key: tenant.key })).status).toBe(200);
      for (const [path, method] of [
        [``, 'PATCH'],
        [`/publish`, 'POST'],
        [`/close`, 'POST'],
        [``, 'DELETE'],
      ] as const) {
        const res = await call(`/signups/${signup.id}${path}`, {
          key: tenant.key,
          method,
          ...(method === 'PATCH' && { body: { title: 'x' } }),
        });
        expect({ path, method, status: res.status, code: res.body?.code }).toEqual({ path, method, status: 403, code: 'forbidden' });
      }
    });

    it('keeps sandbox and live records apart', async () => {
      const own = await newTenant('pro');
      const live = await own.newKey({ mode: 'live' });
      const sandboxSignup = await create(own.key);
      const liveSignup = await create(live.key);
      expect(liveSignup.livemode).toBe(true);
      expect((await call<Page>('/signups', { key: own.key })).body.data.map((s) => s.id)).toEqual([sandboxSignup.id]);
      expect((await call<Page>('/signups', { key: live.key })).body.data.map((s) => s.id)).toEqual([liveSignup.id]);
      expect((await call(`/signups/${sandboxSignup.id}`, { key: live.key })).status).toBe(404);
    });
  });
});
