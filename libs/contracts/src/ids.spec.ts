import { constantTimeEqual, isPlainId, newPrefixedId, randomBase62, sha256Hex } from './ids.js';

describe('constantTimeEqual', () => {
  it('matches a secret only with itself', () => {
    const hash = sha256Hex(randomBase62(32));
    expect(constantTimeEqual(hash, hash)).toBe(true);
    expect(constantTimeEqual(hash, sha256Hex(randomBase62(32)))).toBe(false);
    expect(constantTimeEqual(hash, hash.toUpperCase())).toBe(false);
  });

  it('refuses a prefix, an extension or an empty value without throwing on the different length', () => {
    const token = randomBase62(43);
    expect(constantTimeEqual(token.slice(0, 42), token)).toBe(false);
    expect(constantTimeEqual(`${token}x`, token)).toBe(false);
    expect(constantTimeEqual('', token)).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});

describe('isPlainId', () => {
  it("takes our prefixed ids and oidc-provider's, and nothing a database could choke on", () => {
    expect(isPlainId(newPrefixedId('key'))).toBe(true);
    expect(isPlainId('Xa3_-9')).toBe(true);
    for (const value of ['', 'key_\u0000', '../admin', 'a b', "1' OR '1'='1", '\ud800', 'x'.repeat(129)])
      expect(isPlainId(value)).toBe(false);
  });
});
