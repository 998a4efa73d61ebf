import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Standard Webhooks headers of one delivery. */
export interface WebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** Generates a new signing secret: `whsec_` + base64 of 32 random bytes (shown to the user once). */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** Returns the HMAC key of a `whsec_` secret: the base64-decoded part after the prefix. */
function signingKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) {
    throw new Error(`Signing secret must start with "${SECRET_PREFIX}"`);
  }
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) {
    throw new Error('Signing secret must be base64 after its prefix');
  }
  return Buffer.from(encoded, 'base64');
}

/** Builds the `webhook-signature` value: one `v1,<base64 HMAC-SHA256>` per secret, in the given order. */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  if (secrets.length === 0) {
    throw new Error('At least one signing secret is required');
  }
  const content = `${id}.${timestampSeconds}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', signingKey(secret)).update(content, 'utf8').digest('base64')}`).join(' ');
}

/** Builds the Standard Webhooks headers of a delivery signed with every given secret. */
export function webhookHeaders(secrets: readonly string[], id: string, timestampSeconds: number, body: string): WebhookHeaders {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureHeader(secrets, id, timestampSeconds, body),
  };
}
