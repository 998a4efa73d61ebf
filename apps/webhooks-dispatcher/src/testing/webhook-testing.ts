import type { Tier } from '#libs/config';
import { type CursorList, encodeCursor, newId, newPrefixedId, type Principal } from '#libs/contracts';
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

/** Cursors of the given list that decode (base64url JSON) but name no position of a list ordered by created_at and id. */
export const MISSHAPEN_CURSORS: readonly (readonly [string, (list: CursorList) => string])[] = [
  ['valid JSON of the wrong shape', (list) => encodeCursor({ eventDate: '2027-01-01T00:00:00Z', id: newId() }, list)],
  ['a timestamp that is not a date-time', (list) => encodeCursor({ createdAt: 'x', id: newId() }, list)],
  ['an id that is not a uuid', (list) => encodeCursor({ createdAt: '2027-01-01T00:00:00Z', id: 'not-a-uuid' }, list)],
];
