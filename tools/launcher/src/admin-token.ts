import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** ADMIN_TOKEN from the environment, else one generated once and kept in the data folder. */
export function localAdminToken(env: Record<string, string | undefined>, dataDir: string): string {
  if (env.ADMIN_TOKEN) return env.ADMIN_TOKEN;
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const token = `adm_${randomBytes(24).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
