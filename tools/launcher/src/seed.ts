import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DemoAccount {
  organizationId: string;
  organizationName: string;
  userId: string;
  email: string;
  password: string;
  apiKey: string;
}

/**
 * The demo owner: demo@example.com, or demo-<suffix>@example.com when an earlier, interrupted
 * first start (or a deleted demo.json) already used that address.
 */
async function createOwner(
  authUrl: string,
  adminToken: string,
  organizationId: string,
  password: string,
): Promise<{ id: string; email: string }> {
  const create = (email: string) =>
    admin<{ id: string; email: string }>(authUrl, adminToken, 'users', { email, password, organizationId, role: 'owner' });
  try {
    return await create('demo@example.com');
  } catch (err) {
    if (!(err instanceof AdminError) || err.code !== 'conflict') throw err;
    return create(`demo-${randomBytes(3).toString('hex')}@example.com`);
  }
}

class AdminError extends Error {
  constructor(
    path: string,
    readonly code: string,
    body: unknown,
  ) {
    super(`seeding failed at ${path}: ${JSON.stringify(body)}`);
  }
}

async function admin<T>(authUrl: string, token: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${authUrl}/admin/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T & { code?: string };
  if (!res.ok) throw new AdminError(path, String(json.code), json);
  return json;
}

/**
 * On first start: a demo organization (pro), its owner and a sandbox API key, kept in the data
 * folder (owner-only) so every later start prints the same ones.
 */
export async function ensureDemoAccount(authUrl: string, adminToken: string, dataDir: string): Promise<DemoAccount> {
  const file = join(dataDir, 'demo.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as DemoAccount;
  const org = await admin<{ id: string; name: string }>(authUrl, adminToken, 'organizations', { name: 'Demo Organization', tier: 'pro' });
  const password = randomBytes(12).toString('base64url');
  const user = await createOwner(authUrl, adminToken, org.id, password);
  const key = await admin<{ key: string }>(authUrl, adminToken, 'api-keys', {
    organizationId: org.id,
    userId: user.id,
    mode: 'test',
    name: 'Demo sandbox key',
  });
  const account: DemoAccount = {
    organizationId: org.id,
    organizationName: org.name,
    userId: user.id,
    email: user.email,
    password,
    apiKey: key.key,
  };
  writeFileSync(file, `${JSON.stringify(account, null, 2)}\n`, { mode: 0o600 });
  return account;
}
