import type { Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { ApiKeyCache } from './api-key-cache.js';
import { parseAuthorization } from './credentials.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as ProblemError).code;
  }
  return undefined;
}

const principal = (credentialId: string, organizationId = 'org_a'): Principal => ({
  userId: 'usr_a',
  organizationId,
  tier: 'pro',
  livemode: false,
  scopes: [],
  credentialId,
  kind: 'api_key',
});

describe('parseAuthorization', () => {
  it('reads no header as no credential', () => {
    expect(parseAuthorization(undefined)).toEqual({ kind: 'none' });
  });

  it('tells API keys from other bearer tokens', () => {
    expect(parseAuthorization('Bearer sgn_test_abc')).toEqual({ kind: 'api_key', key: 'sgn_test_abc' });
    expect(parseAuthorization('bearer eyJhbGciOi.x.y')).toEqual({ kind: 'bearer_token', token: 'eyJhbGciOi.x.y' });
  });

  it.each([
    ['Basic dXNlcjpwYXNz'],
    ['Bearer'],
    ['Bearer '],
    ['Bearersgn_test_abc'],
    ['Bearer  sgn_test_abc'],
    ['Bearer a b'],
    ['sgn_test_abc'],
  ])('refuses %j as malformed', (header) => {
    expect(codeOf(() => parseAuthorization(header))).toBe('malformed_credentials');
  });
});

describe('ApiKeyCache', () => {
  it('expires entries after the TTL', () => {
    let now = 0;
    const cache = new ApiKeyCache(1000, 10, () => now);
    cache.set('h', principal('key_1'));
    expect(cache.get('h')?.credentialId).toBe('key_1');
    now = 1000;
    expect(cache.get('h')).toBeUndefined();
  });

  it('evicts by credential and by organization', () => {
    const cache = new ApiKeyCache();
    cache.set('h1', principal('key_1', 'org_a'));
    cache.set('h2', principal('key_2', 'org_a'));
    cache.set('h3', principal('key_3', 'org_b'));
    cache.evictCredential('key_1');
    expect(cache.get('h1')).toBeUndefined();
    cache.evictOrganization('org_a');
    expect(cache.get('h2')).toBeUndefined();
    expect(cache.get('h3')?.credentialId).toBe('key_3');
  });

  it('stays within its size bound', () => {
    const cache = new ApiKeyCache(1000, 2);
    cache.set('a', principal('1'));
    cache.set('b', principal('2'));
    cache.set('c', principal('3'));
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
  });

  it('hashes keys so the plain key is never a map key', () => {
    expect(ApiKeyCache.hash('sgn_test_x')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('ApiKeyCache and evictions racing a verification', () => {
  it('does not cache an answer that started before an eviction', () => {
    const cache = new ApiKeyCache();
    const generation = cache.generation;
    cache.evictCredential('key_1');
    cache.setUnlessEvicted('h', principal('key_1'), generation);
    expect(cache.get('h')).toBeUndefined();
    cache.setUnlessEvicted('h', principal('key_1'), cache.generation);
    expect(cache.get('h')?.credentialId).toBe('key_1');
  });
});
