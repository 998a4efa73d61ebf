import type { SignupDraft } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { call, newTenant } from './support/api.js';

describe('POST /signups/from-description', () => {
  it('answers a draft from the description and creates nothing', async () => {
    const { key } = await newTenant();
    const res = await call<{ draft: SignupDraft }>('/signups/from-description', {
      key,
      body: { description: 'Bake sale next Saturday 9am-1pm at the school gym: 4 cakes, 2 dozen cookies' },
    });
    expect(res.status).toBe(200);
    expect(res.body.draft.title).toEqual(expect.any(String));
    expect(res.body.draft.items.length).toBeGreaterThan(0);
    expect((await call<{ data: unknown[] }>('/signups', { key })).body.data).toEqual([]);
  });

  it('refuses an empty description with 422, and a key without ai:draft with 403', async () => {
    const tenant = await newTenant();
    const empty = await call<ProblemBody>('/signups/from-description', { key: tenant.key, body: { description: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([{ path: 'description', message: 'Must not be empty' }]);
    const narrow = await tenant.newKey({ scopes: 'signups:read signups:write' });
    const refused = await call<ProblemBody>('/signups/from-description', { key: narrow.key, body: { description: 'Potluck' } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('scope_required');
  });
});
