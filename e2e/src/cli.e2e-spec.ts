import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { call } from './support/api.js';
import { stackInfo } from './support/stack-env.js';

const run = promisify(execFile);

/** Runs the admin CLI as an operator would (`npm run --silent admin -- …` runs this file). */
async function admin(...args: string[]): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  const env = { ...process.env, AUTH_URL: stackInfo().authUrl, ADMIN_TOKEN: stackInfo().adminToken };
  try {
    const { stdout, stderr } = await run(process.execPath, ['dist/apps/auth-server/src/admin-cli.js', ...args], { env });
    return { code: 0, json: JSON.parse(stdout) as Record<string, unknown>, stderr };
  } catch (err) {
    const failure = err as { code: number; stdout: string; stderr: string };
    return {
      code: failure.code,
      json: failure.stdout ? (JSON.parse(failure.stdout) as Record<string, unknown>) : {},
      stderr: failure.stderr,
    };
  }
}

describe('admin CLI', () => {
  it('creates an organization, a user and a key that works on the API, then revokes it', async () => {
    const org = await admin('org:create', '--name', 'CLI org', '--tier', 'org');
    expect(org).toMatchObject({ code: 0, json: { name: 'CLI org', tier: 'org' } });
    const orgId = String(org.json.id);
    const user = await admin(
      'user:create',
      '--email',
      `cli-${Date.now()}@example.com`,
      '--password',
      'long enough password',
      '--org',
      orgId,
    );
    expect(user.code).toBe(0);
    const key = await admin('apikey:create', '--org', orgId, '--mode', 'live', '--scopes', 'signups:read ai:draft', '--name', 'ci');
    expect(key.code).toBe(0);
    expect(String(key.json.key)).toMatch(/^sgn_live_/);
    const me = await call<{ scopes: string[]; organization: { tier: string } }>('/me', { key: String(key.json.key) });
    expect(me.body).toMatchObject({ scopes: ['signups:read', 'ai:draft'], organization: { tier: 'org' } });

    const tier = await admin('org:tier', '--org', orgId, '--tier', 'free');
    expect(tier.json).toMatchObject({ tier: 'free' });
    const zone = await admin('org:time-zone', '--org', orgId, '--time-zone', 'Europe/Madrid');
    expect(zone).toMatchObject({ code: 0, json: { tier: 'free', timeZone: 'Europe/Madrid' } });
    expect((await admin('org:time-zone', '--org', orgId, '--time-zone', '+01:00')).code).toBe(1);
    const revoked = await admin('apikey:revoke', '--id', String(key.json.id));
    expect(revoked.json.revokedAt).toEqual(expect.any(String));
  });

  it('prints the problem and exits 1 when the API refuses', async () => {
    const res = await admin('user:create', '--email', 'not-an-email', '--password', 'long enough password', '--org', 'org_x');
    expect(res.code).toBe(1);
    expect(res.json).toMatchObject({ code: 'validation_failed' });
  });

  it('prints usage and exits 2 for an unknown command', async () => {
    const res = await admin('org:explode');
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/usage/i);
  });
});
