import { createHash } from 'node:crypto';
import { API_KEY_PATTERN } from '#libs/contracts';
import { displayPrefix, generateApiKey, hashApiKey, isKeyHash } from './api-key-secret.js';

describe('API key generation', () => {
  it('makes sandbox and live keys of the contract pattern with the mode in the prefix', () => {
    const test = generateApiKey('test');
    const live = generateApiKey('live');
    expect(test).toMatch(/^sgn_test_[0-9A-Za-z]{32}$/);
    expect(live).toMatch(/^sgn_live_[0-9A-Za-z]{32}$/);
    expect(API_KEY_PATTERN.test(test) && API_KEY_PATTERN.test(live)).toBe(true);
  });

  it('never repeats a key', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey('test')));
    expect(keys.size).toBe(1000);
  });

  it('shows the first 12 characters as the display prefix', () => {
    expect(displayPrefix('sgn_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345')).toBe('sgn_live_AbC');
  });
});

describe('key hash shape', () => {
  const hash = createHash('sha256').update('sgn_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345').digest('hex');

  it.each([
    ['an empty string', ''],
    ['uppercase hex', hash.toUpperCase()],
    ['63 characters', hash.slice(0, 63)],
    ['65 characters', `${hash}0`],
    ['a non-hex character', `${hash.slice(0, 63)}g`],
    ['surrounding whitespace', ` ${hash}`],
    ['the plain key', 'sgn_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
    ['a non-string', 42],
  ])('refuses %s', (_label, value) => {
    expect(isKeyHash(value)).toBe(false);
  });

  it('accepts the hash of a generated key', () => {
    expect(isKeyHash(hashApiKey(generateApiKey('live')))).toBe(true);
  });
});

describe('API key hashing', () => {
  it('stores the SHA-256 of the whole key as hex', () => {
    const key = 'sgn_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });
});
