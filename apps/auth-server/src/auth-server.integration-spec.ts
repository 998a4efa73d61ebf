import { createHash } from 'node:crypto';
import type { ApiKeyView, CloudEvent, CreatedApiKey, OrganizationView, Principal, UserView } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { ALL_SCOPES, undeclaredRoutes, walkRoutes } from '#libs/scopes';
import { createTestStack, eventually, type TestStack } from '#libs/testing';
import { runAdminCli } from './admin-cli/run-admin-cli.js';
import { hashApiKey } from './api-keys/api-key-secret.js';
import { authServerApp } from './index.js';

const ADMIN_TOKEN = 'integration-admin-token';

let stack: TestStack;
let running: RunningApp;
const events: CloudEvent[] = [];

beforeAll(async () => {
  stack = await createTestStack('auth_server');
  running = await stack.boot(authServerApp, { ADMIN_TOKEN });
  await stack.bus.broadcast(['auth.apikey.revoked', 'auth.organization.tier_changed'], async (event) => {
    events.push(event);
  });
});

afterAll(async () => {
  await stack?.close();
});

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

interface ProblemAnswer {
  code: string;
  status: number;
  detail?: string;
  errors?: { path: string; message: string }[];
}

async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  authorization: string | null = `Bearer ${ADMIN_TOKEN}`,
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (authorization !== null) headers.authorization = authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${running.url}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as T };
}

let sequence = 0;
const uniqueEmail = () => `person${++sequence}.${Date.now()}@example.test`;

async function createOrg(name = 'Acme Choir', tier?: string): Promise<OrganizationView> {
  const res = await call<OrganizationView>('POST', '/admin/organizations', { name, ...(tier && { tier }) });
  expect(res.status).toBe(201);
  return res.body;
}

async function createUser(organizationId: string, extra: Record<string, string> = {}): Promise<UserView> {
  const res = await call<UserView>('POST', '/admin/users', {
    email: uniqueEmail(),
    password: 'correct horse battery',
    organizationId,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function createKey(organizationId: string, extra: Record<string, string> = {}): Promise<CreatedApiKey> {
  const res = await call<CreatedApiKey>('POST', '/admin/api-keys', { organizationId, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

/** An organization with an owner and a key of the given options. */
async function orgWithKey(extra: Record<string, string> = {}) {
  const org = await createOrg();
  const owner = await createUser(org.id);
  const key = await createKey(org.id, extra);
  return { org, owner, key };
}

/** Reads the auth schema directly, to check what is (and is not) stored. */
async function rows<T>(sql: string, params: unknown[]): Promise<T[]> {
  const dataSource = running.context.dataSource;
  if (!dataSource) throw new Error('the auth-server has no database');
  return dataSource.query<T[]>(sql, params);
}

async function problemOf(promise: Promise<unknown>): Promise<{ code: string; detail?: string }> {
  try {
    await promise;
  } catch (err) {
    return err as { code: string };
  }
  throw new Error('expected the request to fail');
}

const eventsOf = (type: string, predicate: (data: Record<string, unknown>) => boolean) =>
  events.filter((e) => e.type === type && predicate(e.data as unknown as Record<string, unknown>));

describe('admin API authentication', () => {
  const routes: { method: string; path: string; body?: unknown }[] = [
    { method: 'POST', path: '/admin/organizations', body: { name: 'X' } },
    { method: 'GET', path: '/admin/organizations/org_x' },
    { method: 'PATCH', path: '/admin/organizations/org_x', body: { tier: 'pro' } },
    { method: 'POST', path: '/admin/users', body: { email: 'x@example.test', password: 'longenough', organizationId: 'org_x' } },
    { method: 'POST', path: '/admin/api-keys', body: { organizationId: 'org_x' } },
    { method: 'POST', path: '/admin/api-keys/key_x/revoke' },
  ];

  it.each(routes)('refuses $method $path without a token as missing_credentials', async ({ method, path, body }) => {
    const res = await call<ProblemAnswer>(method, path, body, null);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(res.body).toMatchObject({ code: 'missing_credentials', status: 401 });
  });

  it.each(routes)('refuses $method $path with a wrong token as invalid_credentials', async ({ method, path, body }) => {
    const res = await call<ProblemAnswer>(method, path, body, 'Bearer not-the-admin-token');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_credentials');
  });

  it('refuses another scheme as malformed_credentials', async () => {
    const res = await call<ProblemAnswer>('GET', '/admin/organizations/org_x', undefined, `Basic ${ADMIN_TOKEN}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('malformed_credentials');
  });

  it('checks the token before validating the body', async () => {
    const res = await call<ProblemAnswer>('POST', '/admin/organizations', { nonsense: true }, 'Bearer wrong');
    expect(res.body.code).toBe('invalid_credentials');
  });

  it('declares every route of the app, the admin ones as admin', () => {
    expect(undeclaredRoutes(running.app)).toEqual([]);
    const adminRoutes = walkRoutes(running.app).filter((r) => r.path.startsWith('admin/'));
    expect(adminRoutes).toHaveLength(routes.length);
    for (const route of adminRoutes) expect(route.requirement).toEqual({ access: 'admin' });
  });
});

describe('organizations', () => {
  it('creates a free organization with a prefixed id and a slug from its name', async () => {
    const org = await createOrg('Société Chorale');
    expect(org).toEqual({
      id: expect.stringMatching(/^org_[0-9A-Za-z]{24}$/),
      name: 'Société Chorale',
      slug: expect.stringMatching(/^societe-chorale-[a-z0-9]{6}$/),
      tier: 'free',
      timeZone: 'UTC',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(org.createdAt).toBe(org.updatedAt);
  });

  it('gives organizations of the same name different slugs', async () => {
    const [a, b] = [await createOrg('Twins'), await createOrg('Twins')];
    expect(a.slug).not.toBe(b.slug);
  });

  it('creates an organization at the tier asked for', async () => {
    expect((await createOrg('Big Co', 'org')).tier).toBe('org');
  });

  it('creates an organization in the time zone asked for, stored under the name the runtime lists', async () => {
    const res = await call<OrganizationView>('POST', '/admin/organizations', { name: 'Zoned', timeZone: 'US/Central' });
    expect(res.status).toBe(201);
    expect(res.body.timeZone).toBe('America/Chicago');
  });

  it('refuses an offset for a time zone on create and on PATCH', async () => {
    const created = await call<ProblemAnswer>('POST', '/admin/organizations', { name: 'Zoned', timeZone: '+05:00' });
    expect(created.status).toBe(422);
    expect(created.body.errors).toEqual([{ path: 'timeZone', message: expect.stringMatching(/^Unknown time zone/) }]);
    const org = await createOrg();
    const changed = await call<ProblemAnswer>('PATCH', `/admin/organizations/${org.id}`, { timeZone: 'GMT+1' });
    expect(changed.status).toBe(422);
    expect(changed.body.errors).toEqual([{ path: 'timeZone', message: expect.stringMatching(/^Unknown time zone/) }]);
    expect((await call<OrganizationView>('GET', `/admin/organizations/${org.id}`)).body).toEqual(org);
  });

  it('changes the time zone without an event of its own, and the next tier change carries it', async () => {
    const org = await createOrg();
    const res = await call<OrganizationView>('PATCH', `/admin/organizations/${org.id}`, { timeZone: 'Europe/Lisbon' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.id, tier: 'free', timeZone: 'Europe/Lisbon' });
    await call('PATCH', `/admin/organizations/${org.id}`, { tier: 'pro' });
    const [event] = await eventually(() => {
      const found = eventsOf('auth.organization.tier_changed', (d) => d.organizationId === org.id);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(event!.data).toMatchObject({ tier: 'pro', timeZone: 'Europe/Lisbon' });
  });

  it('refuses an invalid body with itemized errors', async () => {
    const res = await call<ProblemAnswer>('POST', '/admin/organizations', { tier: 'gold', colour: 'red' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'Required' },
        { path: 'tier', message: 'Must be one of: free, pro, org' },
        { path: 'colour', message: 'Unknown field' },
      ]),
    );
  });

  it('refuses an empty name', async () => {
    const res = await call<ProblemAnswer>('POST', '/admin/organizations', { name: '' });
    expect(res.body.errors).toEqual([{ path: 'name', message: 'Must not be empty' }]);
  });

  it('reads an organization back by id', async () => {
    const org = await createOrg();
    const res = await call<OrganizationView>('GET', `/admin/organizations/${org.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(org);
  });

  it('answers not_found for an unknown organization', async () => {
    const res = await call<ProblemAnswer>('GET', '/admin/organizations/org_000000000000000000000000');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('changes the tier and emits auth.organization.tier_changed', async () => {
    const org = await createOrg();
    const res = await call<OrganizationView>('PATCH', `/admin/organizations/${org.id}`, { tier: 'pro' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.id, tier: 'pro', createdAt: org.createdAt });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(org.updatedAt));
    const [event] = await eventually(() => {
      const found = eventsOf('auth.organization.tier_changed', (d) => d.organizationId === org.id);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(event).toMatchObject({
      specversion: '1.0',
      source: 'auth-server',
      type: 'auth.organization.tier_changed',
      orgid: org.id,
      livemode: true,
      data: { organizationId: org.id, tier: 'pro', previousTier: 'free', timeZone: 'UTC', livemode: true },
    });
  });

  it('emits nothing when the tier does not change', async () => {
    const org = await createOrg();
    const same = await call<OrganizationView>('PATCH', `/admin/organizations/${org.id}`, { tier: 'free' });
    expect(same.body).toEqual(org);
    await call('PATCH', `/admin/organizations/${org.id}`, { tier: 'org' });
    await eventually(() =>
      expect(eventsOf('auth.organization.tier_changed', (d) => d.organizationId === org.id && d.tier === 'org')).toHaveLength(1),
    );
    expect(eventsOf('auth.organization.tier_changed', (d) => d.organizationId === org.id)).toHaveLength(1);
  });

  it('refuses an unknown tier on PATCH, and changes nothing for an empty one', async () => {
    const org = await createOrg();
    expect((await call<ProblemAnswer>('PATCH', `/admin/organizations/${org.id}`, { tier: 'gold' })).body.errors).toEqual([
      { path: 'tier', message: 'Must be one of: free, pro, org' },
    ]);
    expect((await call<OrganizationView>('PATCH', `/admin/organizations/${org.id}`, {})).body).toEqual(org);
  });

  it('answers not_found when changing the tier of an unknown organization', async () => {
    const res = await call<ProblemAnswer>('PATCH', '/admin/organizations/org_000000000000000000000000', { tier: 'pro' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('users', () => {
  it('makes the first member of an organization its owner and later ones members', async () => {
    const org = await createOrg();
    const first = await createUser(org.id);
    const second = await createUser(org.id);
    expect(first).toEqual({
      id: expect.stringMatching(/^usr_[0-9A-Za-z]{24}$/),
      email: expect.any(String),
      organizationId: org.id,
      role: 'owner',
      createdAt: expect.any(String),
    });
    expect(second.role).toBe('member');
  });

  it('keeps the role asked for, even for the first member', async () => {
    const org = await createOrg();
    expect((await createUser(org.id, { role: 'admin' })).role).toBe('admin');
  });

  it('never returns the password or its hash', async () => {
    const org = await createOrg();
    const res = await call<Record<string, unknown>>('POST', '/admin/users', {
      email: uniqueEmail(),
      password: 'correct horse battery',
      organizationId: org.id,
    });
    expect(Object.keys(res.body).sort()).toEqual(['createdAt', 'email', 'id', 'organizationId', 'role']);
  });

  it('stores the password as an argon2id hash', async () => {
    const org = await createOrg();
    const user = await createUser(org.id);
    const [row] = await rows<{ password_hash: string }>('SELECT password_hash FROM auth.users WHERE id = $1', [user.id]);
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses an email already taken, whatever its case, with conflict', async () => {
    const org = await createOrg();
    const email = uniqueEmail();
    await createUser(org.id, { email });
    const res = await call<ProblemAnswer>('POST', '/admin/users', {
      email: email.toUpperCase(),
      password: 'another password',
      organizationId: org.id,
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });

  it('answers not_found for an unknown organization', async () => {
    const res = await call<ProblemAnswer>('POST', '/admin/users', {
      email: uniqueEmail(),
      password: 'long enough',
      organizationId: 'org_000000000000000000000000',
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('refuses an invalid body with itemized errors', async () => {
    const res = await call<ProblemAnswer>('POST', '/admin/users', { email: 'not-an-email', password: 'short', role: 'king' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Invalid email' },
        { path: 'password', message: 'Must be at least 8 characters' },
        { path: 'organizationId', message: 'Required' },
        { path: 'role', message: 'Must be one of: owner, admin, member' },
      ]),
    );
  });
});

describe('API keys', () => {
  it('creates a sandbox key with every scope for the first owner, showing the key once', async () => {
    const { org, owner, key } = await orgWithKey();
    expect(key).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{24}$/),
      key: expect.stringMatching(/^sgn_test_[0-9A-Za-z]{32}$/),
      name: null,
      prefix: key.key.slice(0, 12),
      mode: 'test',
      scopes: ALL_SCOPES,
      organizationId: org.id,
      userId: owner.id,
      createdAt: expect.any(String),
      revokedAt: null,
    });
    expect(Object.keys(key).slice(0, 2)).toEqual(['id', 'key']);
  });

  it('creates a named live key with a subset of scopes', async () => {
    const { key } = await orgWithKey({ mode: 'live', scopes: 'signups:read ai:draft', name: 'CI' });
    expect(key).toMatchObject({ key: expect.stringMatching(/^sgn_live_/), mode: 'live', scopes: ['signups:read', 'ai:draft'], name: 'CI' });
  });

  it('stores only the SHA-256 of the key and its display prefix', async () => {
    const { key } = await orgWithKey();
    const [row] = await rows<Record<string, unknown>>('SELECT * FROM auth.api_keys WHERE id = $1', [key.id]);
    expect(row).toMatchObject({ key_hash: createHash('sha256').update(key.key).digest('hex'), prefix: key.key.slice(0, 12) });
    expect(JSON.stringify(row)).not.toContain(key.key);
  });

  it('creates a key for the member named by userId', async () => {
    const org = await createOrg();
    await createUser(org.id);
    const member = await createUser(org.id);
    expect((await createKey(org.id, { userId: member.id })).userId).toBe(member.id);
  });

  it('refuses a userId that is not a member of the organization on userId', async () => {
    const org = await createOrg();
    await createUser(org.id);
    const stranger = await createUser((await createOrg('Elsewhere')).id);
    const res = await call<ProblemAnswer>('POST', '/admin/api-keys', { organizationId: org.id, userId: stranger.id });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: 'userId', message: 'Not a member of this organization' }]);
  });

  it('answers bad_request for an organization without users', async () => {
    const org = await createOrg();
    const res = await call<ProblemAnswer>('POST', '/admin/api-keys', { organizationId: org.id });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_request');
    expect(res.body.detail).toContain('create a user first');
  });

  it('answers not_found for an unknown organization', async () => {
    const res = await call<ProblemAnswer>('POST', '/admin/api-keys', { organizationId: 'org_000000000000000000000000' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('refuses unknown scopes, an unknown mode and a missing organization with itemized errors', async () => {
    const res = await call<ProblemAnswer>('POST', '/admin/api-keys', { mode: 'prod', scopes: 'signups:read signups:destroy' });
    expect(res.status).toBe(422);
    expect(res.body.errors?.map((e) => e.path).sort()).toEqual(['mode', 'organizationId', 'scopes']);
  });

  it('revokes a key, emitting auth.apikey.revoked', async () => {
    const { org, key } = await orgWithKey({ mode: 'live' });
    const res = await call<ApiKeyView>('POST', `/admin/api-keys/${key.id}/revoke`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: key.id, revokedAt: expect.any(String) });
    expect(res.body).not.toHaveProperty('key');
    const [event] = await eventually(() => {
      const found = eventsOf('auth.apikey.revoked', (d) => d.apiKeyId === key.id);
      expect(found).toHaveLength(1);
      return found;
    });
    expect(event).toMatchObject({
      source: 'auth-server',
      orgid: org.id,
      livemode: true,
      data: { apiKeyId: key.id, organizationId: org.id, livemode: true },
    });
  });

  it('treats a second revoke as a no-op without a second event', async () => {
    const { org, key } = await orgWithKey();
    const first = await call<ApiKeyView>('POST', `/admin/api-keys/${key.id}/revoke`);
    const second = await call<ApiKeyView>('POST', `/admin/api-keys/${key.id}/revoke`);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const sentinel = await createKey(org.id);
    await call('POST', `/admin/api-keys/${sentinel.id}/revoke`);
    await eventually(() => expect(eventsOf('auth.apikey.revoked', (d) => d.apiKeyId === sentinel.id)).toHaveLength(1));
    expect(eventsOf('auth.apikey.revoked', (d) => d.apiKeyId === key.id)).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ livemode: false }) }),
    ]);
  });

  it('answers not_found when revoking an unknown key', async () => {
    const res = await call<ProblemAnswer>('POST', '/admin/api-keys/key_000000000000000000000000/revoke');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('auth.apikeys.verify', () => {
  it('answers the principal of a sandbox key', async () => {
    const { org, owner, key } = await orgWithKey();
    const principal = await stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key.key) });
    expect(principal).toEqual<Principal>({
      userId: owner.id,
      organizationId: org.id,
      tier: 'free',
      livemode: false,
      scopes: ALL_SCOPES,
      credentialId: key.id,
      kind: 'api_key',
    });
  });

  it('answers a live key as livemode with its subset of scopes', async () => {
    const { key } = await orgWithKey({ mode: 'live', scopes: 'participants:read' });
    expect(await stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key.key) })).toMatchObject({
      livemode: true,
      scopes: ['participants:read'],
    });
  });

  it("carries the organization's current tier", async () => {
    const { org, key } = await orgWithKey();
    await call('PATCH', `/admin/organizations/${org.id}`, { tier: 'pro' });
    expect((await stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key.key) })).tier).toBe('pro');
  });

  it('refuses the hash of a well-formed key that does not exist as invalid_credentials', async () => {
    const problem = await problemOf(stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(`sgn_test_${'A'.repeat(32)}`) }));
    expect(problem.code).toBe('invalid_credentials');
  });

  it('refuses the plain key itself as invalid_credentials', async () => {
    const { key } = await orgWithKey();
    expect((await problemOf(stack.bus.request('auth.apikeys.verify', { keyHash: key.key }))).code).toBe('invalid_credentials');
  });

  it("refuses the uppercase hex of an existing key's hash as invalid_credentials", async () => {
    const { key } = await orgWithKey();
    const keyHash = hashApiKey(key.key).toUpperCase();
    expect((await problemOf(stack.bus.request('auth.apikeys.verify', { keyHash }))).code).toBe('invalid_credentials');
  });

  it.each(['', 'abc', '0'.repeat(63), '0'.repeat(65), `${'0'.repeat(63)}g`, ` ${'0'.repeat(64)}`])(
    'refuses the malformed hash %p as invalid_credentials',
    async (keyHash) => {
      expect((await problemOf(stack.bus.request('auth.apikeys.verify', { keyHash }))).code).toBe('invalid_credentials');
    },
  );

  it('refuses a non-string keyHash as invalid_credentials', async () => {
    const keyHash = 42 as unknown as string;
    expect((await problemOf(stack.bus.request('auth.apikeys.verify', { keyHash }))).code).toBe('invalid_credentials');
  });

  it('refuses a revoked key as revoked_credentials', async () => {
    const { key } = await orgWithKey();
    await call('POST', `/admin/api-keys/${key.id}/revoke`);
    expect((await problemOf(stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key.key) }))).code).toBe('revoked_credentials');
  });
});

describe('auth.me and auth.orgs.get', () => {
  it("describes the key's user, organization, scopes and credential", async () => {
    const { org, owner, key } = await orgWithKey({ scopes: 'signups:read signups:write' });
    const principal = await stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key.key) });
    expect(await stack.bus.request('auth.me', { principal })).toEqual({
      id: owner.id,
      email: owner.email,
      organization: { id: org.id, name: org.name, slug: org.slug, tier: 'free', timeZone: 'UTC' },
      scopes: ['signups:read', 'signups:write'],
      credential: { type: 'api_key', mode: 'test' },
    });
  });

  it("reports a live key's mode and the member it was created for", async () => {
    const org = await createOrg();
    await createUser(org.id);
    const member = await createUser(org.id);
    const key = await createKey(org.id, { mode: 'live', userId: member.id });
    const me = await stack.bus.request('auth.me', {
      principal: await stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key.key) }),
    });
    expect(me).toMatchObject({ id: member.id, email: member.email, credential: { type: 'api_key', mode: 'live' } });
    expect(me).not.toHaveProperty('role');
    expect(me).not.toHaveProperty('organizations');
  });

  it("gives the dashboard's token the user's role and every organization of theirs, oldest membership first", async () => {
    const first = await createOrg('First choir');
    const user = await createUser(first.id);
    const second = await createOrg('Second choir', 'pro');
    await rows(
      `INSERT INTO auth.memberships (user_id, organization_id, role, created_at) VALUES ($1, $2, 'member', now() + interval '1 second')`,
      [user.id, second.id],
    );
    const principal: Principal = {
      userId: user.id,
      organizationId: second.id,
      tier: 'pro',
      livemode: true,
      scopes: ['signups:read'],
      credentialId: 'grant-1',
      kind: 'oauth',
      clientId: 'dashboard',
    };
    expect(await stack.bus.request('auth.me', { principal })).toEqual({
      id: user.id,
      email: user.email,
      organization: { id: second.id, name: second.name, slug: second.slug, tier: 'pro', timeZone: 'UTC' },
      scopes: ['signups:read'],
      credential: { type: 'oauth', mode: 'live', clientId: 'dashboard' },
      role: 'member',
      organizations: [
        { id: first.id, name: first.name, slug: first.slug, tier: 'free', role: 'owner' },
        { id: second.id, name: second.name, slug: second.slug, tier: 'pro', role: 'member' },
      ],
    });
  });

  it("gives another OAuth app the role in its organization only, not the user's other organizations", async () => {
    const first = await createOrg('Third choir');
    const user = await createUser(first.id);
    const principal: Principal = {
      userId: user.id,
      organizationId: first.id,
      tier: 'free',
      livemode: true,
      scopes: ['signups:read'],
      credentialId: 'grant-2',
      kind: 'oauth',
      clientId: 'cli_someone_else',
    };
    const me = await stack.bus.request('auth.me', { principal });
    expect(me).toMatchObject({ role: 'owner', credential: { type: 'oauth', clientId: 'cli_someone_else' } });
    expect(me).not.toHaveProperty('organizations');
  });

  it("reads the caller's own organization", async () => {
    const { org, key } = await orgWithKey();
    const principal = await stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key.key) });
    expect(await stack.bus.request('auth.orgs.get', { principal, id: org.id })).toEqual(org);
  });

  it('answers not_found for another organization', async () => {
    const { key } = await orgWithKey();
    const other = await createOrg('Other');
    const principal = await stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key.key) });
    expect((await problemOf(stack.bus.request('auth.orgs.get', { principal, id: other.id }))).code).toBe('not_found');
  });
});

describe('admin CLI against the server', () => {
  async function cli(...argv: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
    const out: string[] = [];
    const code = await runAdminCli(argv, {
      fetch,
      env: { AUTH_URL: running.url, ADMIN_TOKEN },
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: () => undefined },
    });
    return { code, json: JSON.parse(out.join('')) as Record<string, unknown> };
  }

  it('creates an organization, a user and a key that verifies, then revokes it', async () => {
    const org = await cli('org:create', '--name', 'CLI Club', '--tier', 'pro');
    expect(org).toMatchObject({ code: 0, json: { name: 'CLI Club', tier: 'pro' } });
    const orgId = String(org.json.id);
    const user = await cli('user:create', '--email', uniqueEmail(), '--password', 'correct horse battery', '--org', orgId);
    expect(user).toMatchObject({ code: 0, json: { organizationId: orgId, role: 'owner' } });
    const key = await cli('apikey:create', '--org', orgId, '--mode', 'live', '--scopes', 'signups:read reminders:send', '--name', 'ops');
    expect(key).toMatchObject({ code: 0, json: { mode: 'live', scopes: ['signups:read', 'reminders:send'], userId: user.json.id } });
    const plain = String(key.json.key);
    expect(await stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(plain) })).toMatchObject({
      organizationId: orgId,
      tier: 'pro',
      livemode: true,
    });
    const tier = await cli('org:tier', '--org', orgId, '--tier', 'org');
    expect(tier).toMatchObject({ code: 0, json: { tier: 'org' } });
    const revoked = await cli('apikey:revoke', '--id', String(key.json.id));
    expect(revoked).toMatchObject({ code: 0, json: { id: key.json.id, revokedAt: expect.any(String) } });
    expect((await problemOf(stack.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(plain) }))).code).toBe('revoked_credentials');
  });

  it('prints the problem and exits 1 when the API refuses', async () => {
    const res = await cli('org:tier', '--org', 'org_000000000000000000000000', '--tier', 'pro');
    expect(res).toMatchObject({ code: 1, json: { code: 'not_found', status: 404 } });
  });
});
