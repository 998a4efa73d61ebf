import { ALL_SCOPES } from '#libs/scopes';
import { eventually } from '#libs/testing';
import { call, newTenant, revokeKey, setTier, signupBody, type Tenant } from './support/api.js';
import { stackInfo } from './support/stack-env.js';

describe('credentials and GET /me', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
  });

  it('GET /me describes the user, organization, scopes and credential of an API key', async () => {
    const res = await call('/me', { key: tenant.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: tenant.user.id,
      email: tenant.user.email,
      organization: {
        id: tenant.organization.id,
        name: tenant.organization.name,
        slug: tenant.organization.slug,
        tier: 'pro',
        timeZone: 'UTC',
      },
      scopes: ALL_SCOPES,
      credential: { type: 'api_key', mode: 'test' },
    });
  });

  it('reports a live key as mode live', async () => {
    const live = await tenant.newKey({ mode: 'live' });
    expect(live.key).toMatch(/^sgn_live_[0-9A-Za-z]{32}$/);
    const res = await call<{ credential: { mode: string } }>('/me', { key: live.key });
    expect(res.body.credential.mode).toBe('live');
  });

  it('answers no Authorization header with 401 missing_credentials as problem+json', async () => {
    const res = await call('/me');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.body).toMatchObject({
      type: `${stackInfo().problemBase}/missing-credentials`,
      status: 401,
      code: 'missing_credentials',
      instance: `urn:request:${res.headers.get('x-request-id')}`,
    });
  });

  it.each([['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearersgn_test_x'], ['Token abc']])(
    'answers Authorization %j with 401 malformed_credentials',
    async (header) => {
      const res = await call('/me', { headers: { authorization: header } });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'malformed_credentials' });
    },
  );

  it('answers an unknown key with 401 invalid_credentials', async () => {
    const res = await call('/me', { key: `sgn_test_${'A'.repeat(32)}` });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'invalid_credentials' });
  });

  it('answers a revoked key with 401 revoked_credentials at once, even after it was cached', async () => {
    const created = await tenant.newKey();
    expect((await call('/me', { key: created.key })).status).toBe(200);
    await revokeKey(created.id);
    await eventually(async () => {
      const res = await call('/me', { key: created.key });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: 'revoked_credentials' });
    });
  });

  it('answers a key without the needed scope with 403 scope_required naming the scope', async () => {
    const readOnly = await tenant.newKey({ scopes: 'signups:read' });
    expect((await call('/signups', { key: readOnly.key })).status).toBe(200);
    const res = await call('/signups', { key: readOnly.key, body: signupBody() });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'scope_required' });
    expect(res.body.detail).toContain('signups:write');
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="signups:write"');
    const me = await call<{ scopes: string[] }>('/me', { key: readOnly.key });
    expect(me.body.scopes).toEqual(['signups:read']);
  });

  it('GET /orgs/{id} returns the caller organization and 404 for any other', async () => {
    const own = await call(`/orgs/${tenant.organization.id}`, { key: tenant.key });
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      id: tenant.organization.id,
      name: tenant.organization.name,
      slug: tenant.organization.slug,
      tier: 'pro',
      timeZone: 'UTC',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const other = await newTenant('free');
    const res = await call(`/orgs/${other.organization.id}`, { key: tenant.key });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
  });

  it('shows a tier change on the next request', async () => {
    const own = await newTenant('free');
    expect((await call<{ organization: { tier: string } }>('/me', { key: own.key })).body.organization.tier).toBe('free');
    await setTier(own.organization.id, 'org');
    await eventually(async () => {
      expect((await call<{ organization: { tier: string } }>('/me', { key: own.key })).body.organization.tier).toBe('org');
    });
  });
});
