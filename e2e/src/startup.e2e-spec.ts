import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createTestDatabase } from '#libs/persistence';

const run = promisify(execFile);

/** Every line on stderr is a failure: a warning from a dependency included. */
function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '');
}

async function node(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { env: { ...process.env, ...env }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failure = err as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

describe('starting and migrating', () => {
  it('applies every app migration once, and nothing the second time', async () => {
    const database = await createTestDatabase('migrate');
    try {
      const first = await node(['dist/tools/launcher/src/migrate.js'], { DATABASE_URL: database.url });
      expect({ code: first.code, stderr: stderrLines(first.stderr) }).toEqual({ code: 0, stderr: [] });
      const applied = first.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { app: string; schema: string; applied: string[] });
      expect(applied.map((a) => a.schema)).toEqual(['auth', 'signups', 'webhooks', 'reminders', 'gateway']);
      for (const a of applied) {
        expect(a.applied.length).toBeGreaterThan(0);
        for (const name of a.applied) expect(name).toMatch(/^[A-Za-z]+\d{13}$/);
      }
      const second = await node(['dist/tools/launcher/src/migrate.js', 'signups-service'], { DATABASE_URL: database.url });
      expect({ code: second.code, stderr: stderrLines(second.stderr) }).toEqual({ code: 0, stderr: [] });
      expect(second.stdout.trim()).toBe(JSON.stringify({ app: 'signups-service', schema: 'signups', applied: [] }));
    } finally {
      await database.drop();
    }
  });

  it('refuses to migrate an app that owns no schema', async () => {
    const res = await node(['dist/tools/launcher/src/migrate.js', 'mcp-server'], {});
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No app with a schema named mcp-server');
  });

  it('fails fast at boot naming every bad variable', async () => {
    const res = await node(['dist/apps/api-gateway/src/main.js'], {
      API_GATEWAY_PORT: 'eighty',
      TRUST_PROXY: 'maybe',
      NATS_URL: 'not a url',
      HTTP_REQUEST_TIMEOUT_MS: '0',
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('NATS_URL must be an absolute URL');
    expect(res.stderr).toContain('API_GATEWAY_PORT must be an integer');
    expect(res.stderr).toContain('TRUST_PROXY must be true or false');
    expect(res.stderr).toContain('HTTP_REQUEST_TIMEOUT_MS must be an integer between 100 and 300000 (got "0")');
  });

  it('stops the reminders-service at boot on an SMS country list that is not one, naming the entry', async () => {
    const res = await node(['dist/apps/reminders-service/src/main.js'], { SMS_ALLOWED_COUNTRIES: 'US,XX' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('SMS_ALLOWED_COUNTRIES has "XX", which is not a country code with a phone numbering plan');
  });

  it('fails the run in CI when a service is unreachable, naming it', async () => {
    const res = await node(['tools/check-services.mjs'], { CI: 'true', REDIS_URL: 'redis://127.0.0.1:1' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Redis at redis://127.0.0.1:1');
  });
});
