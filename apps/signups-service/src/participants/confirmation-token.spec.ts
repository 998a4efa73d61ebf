import { hashOf, newConfirmationToken } from './confirmation-token.js';

describe('confirmation tokens', () => {
  it('are cnf_ and 32 base62 characters, stored as their SHA-256', () => {
    const { token, hash } = newConfirmationToken();
    expect(token).toMatch(/^cnf_[0-9A-Za-z]{32}$/);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(token)).toBe(hash);
    expect(newConfirmationToken().token).not.toBe(token);
  });

  it('have no hash when malformed', () => {
    for (const token of [
      undefined,
      42,
      '',
      'cnf_',
      `cnf_${'a'.repeat(31)}`,
      `cnf_${'a'.repeat(33)}`,
      `CNF_${'a'.repeat(32)}`,
      `cnf_${'a'.repeat(31)}-`,
    ]) {
      expect(hashOf(token)).toBeUndefined();
    }
  });
});
