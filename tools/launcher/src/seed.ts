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

async function admin<T>(authUrl: string, token: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${authUrl}/admin/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`seeding failed at ${path}: ${JSON.stringify(json)}`);
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
  const user = await admin<{ id: string; email: string }>(authUrl, adminToken, 'users', {
    email: 'demo@example.com',
    password,
    organizationId: org.id,
    role: 'owner',
  });
  const key = await admin<{ key: string }>(authUrl, adminToken, 'api-keys', { organizationId: org.id, userId: user.id, mode: 'test', name: 'Demo sandbox key' });
  const account: DemoAccount = { organizationId: org.id, organizationName: org.name, userId: user.id, email: user.email, password, apiKey: key.key };
  writeFileSync(file, `${JSON.stringify(account, null, 2)}\n`, { mode: 0o600 });
  return account;
}
