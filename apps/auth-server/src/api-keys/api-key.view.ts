import type { ApiKeyView, KeyMode } from '#libs/contracts';
import { ALL_SCOPES, type Scope } from '#libs/scopes';
import type { ApiKey } from './api-key.js';

/** The key mode a principal acts in: live keys and OAuth tokens are live. */
export function modeOf(livemode: boolean): KeyMode {
  return livemode ? 'live' : 'test';
}

/** A key's scopes: its subset, or every scope when created without one. */
export function scopesOf(key: ApiKey): Scope[] {
  return key.scopes ?? [...ALL_SCOPES];
}

export function toApiKeyView(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    mode: key.mode,
    scopes: scopesOf(key),
    organizationId: key.organizationId,
    userId: key.userId,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
