import type { Tier } from '#libs/config';
import { newPrefixedId, type Principal } from '#libs/contracts';
import { ALL_SCOPES } from '#libs/scopes';

/** A caller of a fresh organization: a sandbox API key of a pro organization unless told otherwise. */
export function caller(options: { organizationId?: string; livemode?: boolean; tier?: Tier; kind?: Principal['kind'] } = {}): Principal {
  return {
    userId: newPrefixedId('usr'),
    organizationId: options.organizationId ?? newPrefixedId('org'),
    tier: options.tier ?? 'pro',
    livemode: options.livemode ?? false,
    scopes: ALL_SCOPES,
    credentialId: newPrefixedId('key'),
    kind: options.kind ?? 'api_key',
  };
}

export { problemOf } from '#libs/testing';
