import { randomBytes } from 'node:crypto';
import { SecretBox } from '#libs/crypto';
import { ConfirmationTokens, hashOf } from './confirmation-token.js';

const KEY = SecretBox.generateKey();
const tokens = new ConfirmationTokens({ confirmationTokenKey: KEY });

describe('confirmation tokens', () => {
  it('are cnf_ and 32 base62 characters, stored as their SHA-256 and sealed', () => {
    const { token, hash, sealed } = tokens.issue();
    expect(token).toMatch(/^cnf_[0-9A-Za-z]{32}$/);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashOf(token)).toBe(hash);
    expect(sealed).not.toContain(token.slice(4));
    expect(tokens.open(sealed)).toBe(token);
    expect(tokens.issue().token).not.toBe(token);
  });

  it('open only what was sealed under their key, and only tokens', () => {
    const other = new ConfirmationTokens({ confirmationTokenKey: SecretBox.generateKey() });
    const { sealed } = tokens.issue();
    expect(other.open(sealed)).toBeUndefined();
    expect(tokens.open(`${sealed}A`)).toBeUndefined();
    expect(tokens.open('')).toBeUndefined();
    expect(tokens.open(new SecretBox(KEY).seal('not a token'))).toBeUndefined();
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

  it('refuse a key that is not 32 bytes of base64', () => {
    expect(() => new ConfirmationTokens({ confirmationTokenKey: randomBytes(16).toString('base64') })).toThrow(/32 bytes/);
  });
});
