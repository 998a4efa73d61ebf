import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** The value of `name` from the environment, else one generated once and kept in `dataDir/<file>`. */
function localSecret(env: Env, dataDir: string, name: string, file: string, generate: () => string): string {
  if (env[name]) return env[name];
  const path = join(dataDir, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const value = generate();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return value;
}

/**
 * The secrets a local stack needs, each kept in the data folder across restarts: the admin
 * token (data/admin-token), the key that seals webhook signing secrets (data/webhook-secret-key),
 * the one that seals confirmation tokens (data/confirmation-token-key) and the one that seals
 * stored emails (data/email-secret-key). Local development also lets webhooks reach private
 * addresses, and shows stored emails at /mailbox.
 */
export function withLocalSecrets(
  env: Env,
  dataDir: string,
): Env & { ADMIN_TOKEN: string; WEBHOOK_SECRET_KEY: string; CONFIRMATION_TOKEN_KEY: string; EMAIL_SECRET_KEY: string } {
  const key = () => randomBytes(32).toString('base64');
  return {
    ...env,
    ADMIN_TOKEN: localSecret(env, dataDir, 'ADMIN_TOKEN', 'admin-token', () => `adm_${randomBytes(24).toString('base64url')}`),
    WEBHOOK_SECRET_KEY: localSecret(env, dataDir, 'WEBHOOK_SECRET_KEY', 'webhook-secret-key', key),
    EMAIL_SECRET_KEY: localSecret(env, dataDir, 'EMAIL_SECRET_KEY', 'email-secret-key', key),
    CONFIRMATION_TOKEN_KEY: localSecret(env, dataDir, 'CONFIRMATION_TOKEN_KEY', 'confirmation-token-key', key),
    WEBHOOK_ALLOW_PRIVATE_URLS: env.WEBHOOK_ALLOW_PRIVATE_URLS || 'true',
    MAILBOX_PAGE: env.MAILBOX_PAGE || 'true',
  };
}
