import { errors } from 'oidc-provider';
import { isWellFormed } from '#libs/contracts';
import { isFirstParty } from './first-party.js';

/** What a dynamically registered client may ask for: sizes and counts a real app never needs more of. */
export const CLIENT_LIMITS = {
  /** client_name, shown on the consent page. */
  nameLength: 200,
  /** Any other string value (URIs, scopes, contacts). */
  stringLength: 2000,
  /** Any list (redirect URIs, grant types, contacts). */
  listLength: 10,
  /** The whole metadata as JSON (a jwks object included). */
  jsonLength: 16_384,
} as const;

/** Schemes that must never receive a code: they run or read something in the browser instead of reaching an app. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:', 'ftp:', 'ws:', 'wss:']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Whether a redirect URI may be registered (RFC 8252 and OAuth 2.1): https; http only to the
 * loopback interface, where a native app listens; or a private-use scheme of a native app
 * (`com.example.app:/callback`, `cursor://…`).
 */
export function redirectUriAllowed(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname);
  return url.protocol === 'https:' || !FORBIDDEN_SCHEMES.has(url.protocol);
}

/** Valid Unicode with no NUL: Postgres's jsonb stores no `\u0000`. */
function storable(text: string): boolean {
  return isWellFormed(text) && !text.includes('\0');
}

/**
 * Whether every string in a value, keys included, can be stored. JSON.stringify writes a lone
 * surrogate as `\udXXX` and a NUL as `\u0000`, which Postgres's jsonb refuses: the client could
 * not be stored.
 */
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return storable(value);
  if (typeof value !== 'object' || value === null) return true;
  return Object.entries(value).every(([key, member]) => storable(key) && wellFormed(member));
}

function checkSizes(key: string, value: unknown): void {
  const limit = key === 'client_name' ? CLIENT_LIMITS.nameLength : CLIENT_LIMITS.stringLength;
  if (typeof value === 'string' && value.length > limit)
    throw new errors.InvalidClientMetadata(`${key} must be at most ${limit} characters`);
  if (Array.isArray(value)) {
    if (value.length > CLIENT_LIMITS.listLength)
      throw new errors.InvalidClientMetadata(`${key} must have at most ${CLIENT_LIMITS.listLength} members`);
    for (const member of value) checkSizes(key, member);
  }
}

/**
 * oidc-provider's extraClientMetadata validator, declared for client_name so that it runs on
 * every registration (and every load of a stored client) with the whole metadata, before the
 * provider's own checks: it refuses text that is not valid Unicode, bounds every field and allows
 * only safe redirect URIs. Our first-party clients are configuration, not anonymous registrations
 * (their redirect URI is PUBLIC_BASE_URL's, http in development): none of this applies to them.
 */
export function checkClientMetadata(_ctx: unknown, key: string, _value: unknown, metadata: Record<string, unknown>): void {
  if (key !== 'client_name' || isFirstParty(metadata.client_id)) return;
  for (const [field, value] of Object.entries(metadata)) {
    if (!wellFormed(value)) throw new errors.InvalidClientMetadata(`${field} must be valid Unicode, with no NUL character`);
    checkSizes(field, value);
  }
  if (JSON.stringify(metadata).length > CLIENT_LIMITS.jsonLength)
    throw new errors.InvalidClientMetadata(`the client metadata must be at most ${CLIENT_LIMITS.jsonLength} bytes of JSON`);
  const redirectUris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris : [];
  const refused = redirectUris.find((uri) => typeof uri !== 'string' || !redirectUriAllowed(uri));
  if (refused !== undefined) {
    // A description starting with redirect_uris makes it the invalid_redirect_uri error of RFC 7591.
    throw new errors.InvalidClientMetadata(
      'redirect_uris must be https, http on the loopback interface (127.0.0.1, [::1] or localhost), or a private-use scheme of a native app',
    );
  }
}
