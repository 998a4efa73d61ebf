import { type AdminCliIo, parseAdminCommand, runAdminCli, USAGE } from './run-admin-cli.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

function fakeIo(answer: { status: number; body: unknown } | Error, env: Record<string, string> = { ADMIN_TOKEN: 'tok' }) {
  const calls: Call[] = [];
  const out: string[] = [];
  const err: string[] = [];
  const fakeFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    calls.push({
      url: String(input),
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    if (answer instanceof Error) throw answer;
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
  const io: AdminCliIo = {
    fetch: fakeFetch as typeof fetch,
    env,
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
  };
  return { io, calls, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('admin CLI parsing', () => {
  it('maps each command to its admin API call', () => {
    expect(parseAdminCommand(['org:create', '--name', 'Acme', '--tier', 'pro'])).toEqual({
      method: 'POST',
      path: '/admin/organizations',
      body: { name: 'Acme', tier: 'pro' },
    });
    expect(parseAdminCommand(['org:tier', '--org', 'org_1', '--tier', 'org'])).toEqual({
      method: 'PATCH',
      path: '/admin/organizations/org_1',
      body: { tier: 'org' },
    });
    expect(parseAdminCommand(['org:create', '--name', 'Acme', '--time-zone', 'America/Denver'])).toEqual({
      method: 'POST',
      path: '/admin/organizations',
      body: { name: 'Acme', timeZone: 'America/Denver' },
    });
    expect(parseAdminCommand(['org:time-zone', '--org', 'org_1', '--time-zone', 'Europe/Rome'])).toEqual({
      method: 'PATCH',
      path: '/admin/organizations/org_1',
      body: { timeZone: 'Europe/Rome' },
    });
    expect(parseAdminCommand(['user:create', '--email', 'a@b.co', '--password', 'pw123456', '--org', 'org_1', '--role', 'admin'])).toEqual({
      method: 'POST',
      path: '/admin/users',
      body: { email: 'a@b.co', password: 'pw123456', organizationId: 'org_1', role: 'admin' },
    });
    expect(
      parseAdminCommand([
        'apikey:create',
        '--org',
        'org_1',
        '--user',
        'usr_1',
        '--mode',
        'live',
        '--scopes',
        'signups:read ai:draft',
        '--name',
        'CI',
      ]),
    ).toEqual({
      method: 'POST',
      path: '/admin/api-keys',
      body: { organizationId: 'org_1', userId: 'usr_1', mode: 'live', scopes: 'signups:read ai:draft', name: 'CI' },
    });
    expect(parseAdminCommand(['apikey:revoke', '--id', 'key_1'])).toEqual({ method: 'POST', path: '/admin/api-keys/key_1/revoke' });
  });

  it('accepts --flag=value and leaves omitted optional flags out of the body', () => {
    const request = parseAdminCommand(['apikey:create', '--org=org_1']);
    expect(JSON.parse(JSON.stringify(request.body))).toEqual({ organizationId: 'org_1' });
  });

  it('escapes ids placed in the path', () => {
    expect(parseAdminCommand(['apikey:revoke', '--id', '../x?y']).path).toBe('/admin/api-keys/..%2Fx%3Fy/revoke');
  });

  it.each([
    ['no command', [], /No command given/],
    ['an unknown command', ['org:delete', '--org', 'x'], /Unknown command "org:delete"/],
    ['a missing required flag', ['user:create', '--email', 'a@b.co'], /user:create needs --password, --org/],
    ['an unknown flag', ['org:create', '--name', 'A', '--colour', 'red'], /colour/],
    ['a flag without its value', ['org:create', '--name'], /name/],
    ['a stray positional argument', ['org:create', '--name', 'A', 'extra'], /extra/],
  ])('refuses %s', (_label, argv, message) => {
    expect(() => parseAdminCommand(argv as string[])).toThrow(message as RegExp);
  });
});

describe('admin CLI run', () => {
  it('sends the admin token to AUTH_URL and prints the answer as one JSON object, exit 0', async () => {
    const fake = fakeIo({ status: 201, body: { id: 'org_1', name: 'Acme' } }, { ADMIN_TOKEN: 'tok', AUTH_URL: 'http://auth.test:9/' });
    const code = await runAdminCli(['org:create', '--name', 'Acme'], fake.io);
    expect(code).toBe(0);
    expect(fake.calls).toEqual([
      {
        url: 'http://auth.test:9/admin/organizations',
        method: 'POST',
        headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
        body: { name: 'Acme' },
      },
    ]);
    expect(JSON.parse(fake.stdout())).toEqual({ id: 'org_1', name: 'Acme' });
    expect(fake.stderr()).toBe('');
  });

  it('calls http://localhost:3001 when AUTH_URL is not set, with no body for a revoke', async () => {
    const fake = fakeIo({ status: 200, body: { id: 'key_1' } });
    await runAdminCli(['apikey:revoke', '--id', 'key_1'], fake.io);
    expect(fake.calls[0]).toEqual({
      url: 'http://localhost:3001/admin/api-keys/key_1/revoke',
      method: 'POST',
      headers: { authorization: 'Bearer tok' },
      body: undefined,
    });
  });

  it('prints the problem on stdout and exits 1 when the API refuses', async () => {
    const problem = { code: 'not_found', status: 404, detail: 'No organization with id "org_x".' };
    const fake = fakeIo({ status: 404, body: problem });
    expect(await runAdminCli(['org:tier', '--org', 'org_x', '--tier', 'pro'], fake.io)).toBe(1);
    expect(JSON.parse(fake.stdout())).toEqual(problem);
  });

  it('exits 1 with a message on stderr when the server cannot be reached', async () => {
    const fake = fakeIo(
      new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3001'), { code: 'ECONNREFUSED' }) }),
    );
    expect(await runAdminCli(['org:create', '--name', 'Acme'], fake.io)).toBe(1);
    expect(fake.stdout()).toBe('');
    expect(fake.stderr()).toBe('Cannot reach the auth-server at http://localhost:3001: fetch failed (ECONNREFUSED)\n');
  });

  it('prints the usage on stderr and exits 2 for an unknown command, calling nothing', async () => {
    const fake = fakeIo({ status: 200, body: {} });
    expect(await runAdminCli(['org:explode'], fake.io)).toBe(2);
    expect(fake.stderr()).toContain('Unknown command "org:explode"');
    expect(fake.stderr()).toContain(USAGE);
    expect(fake.stdout()).toBe('');
    expect(fake.calls).toHaveLength(0);
  });

  it('exits 2 naming ADMIN_TOKEN when it is not set', async () => {
    const fake = fakeIo({ status: 200, body: {} }, {});
    expect(await runAdminCli(['org:create', '--name', 'Acme'], fake.io)).toBe(2);
    expect(fake.stderr()).toMatch(/^ADMIN_TOKEN is not set/);
    expect(fake.calls).toHaveLength(0);
  });

  it('lists every command in the usage', () => {
    for (const command of ['org:create', 'org:tier', 'org:time-zone', 'user:create', 'apikey:create', 'apikey:revoke'])
      expect(USAGE).toContain(`  ${command} --`);
  });
});
