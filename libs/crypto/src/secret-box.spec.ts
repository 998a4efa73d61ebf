import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box.js';

const OPEN_FAILED = 'sealed value cannot be opened';

/** Returns the error thrown by `fn`, failing the test when nothing is thrown. */
function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error('thrown value is not an Error');
  }
  throw new Error('expected an error to be thrown');
}

/** A secret like those sealed: a prefix and 32 random bytes. */
const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** Flips one bit of the base64url part at `index` of a sealed value. */
function flipBit(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index], 'base64url');
  bytes[0] ^= 1;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

describe('SecretBox', () => {
  const key = SecretBox.generateKey();
  const box = new SecretBox(key);
  const secret = newSecret();

  it('generates base64 keys of 32 random bytes', () => {
    expect(Buffer.from(key, 'base64')).toHaveLength(32);
    expect(SecretBox.generateKey()).not.toBe(key);
  });

  it('round-trips a secret', () => {
    expect(box.open(box.seal(secret))).toBe(secret);
  });

  it('round-trips empty and non-ASCII text', () => {
    expect(box.open(box.seal(''))).toBe('');
    expect(box.open(box.seal('clé secrète 🔑'))).toBe('clé secrète 🔑');
  });

  it('opens with another instance built from the same key', () => {
    expect(new SecretBox(key).open(box.seal(secret))).toBe(secret);
  });

  it('produces v1.<iv>.<tag>.<ciphertext> with a 12-byte IV and a 16-byte tag', () => {
    const sealed = box.seal(secret);
    const [version, iv, tag, ciphertext] = sealed.split('.');
    expect(sealed.split('.')).toHaveLength(4);
    expect(version).toBe('v1');
    for (const part of [iv, tag, ciphertext]) expect(part).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext, 'base64url')).toHaveLength(Buffer.byteLength(secret));
    expect(sealed).not.toContain(secret.slice('whsec_'.length));
  });

  it('produces a different ciphertext (fresh IV) each time for the same plaintext', () => {
    const sealed = Array.from({ length: 20 }, () => box.seal(secret));
    expect(new Set(sealed).size).toBe(20);
    expect(new Set(sealed.map((value) => value.split('.')[1])).size).toBe(20);
  });

  it('fails to open with a wrong key', () => {
    const other = new SecretBox(SecretBox.generateKey());
    expect(() => other.open(box.seal(secret))).toThrow(OPEN_FAILED);
  });

  it.each([
    ['iv', 1],
    ['tag', 2],
    ['ciphertext', 3],
  ])('fails to open when the %s is tampered with', (_name, index) => {
    expect(() => box.open(flipBit(box.seal(secret), index))).toThrow(OPEN_FAILED);
  });

  it('fails to open when parts are swapped between sealed values', () => {
    const [a, b] = [box.seal(secret), box.seal(newSecret())].map((value) => value.split('.'));
    expect(() => box.open([a[0], a[1], b[2], a[3]].join('.'))).toThrow(OPEN_FAILED);
  });

  it('fails to open when the ciphertext is truncated or extended', () => {
    const sealed = box.seal(secret);
    expect(() => box.open(sealed.slice(0, -4))).toThrow(OPEN_FAILED);
    expect(() => box.open(`${sealed}AAAA`)).toThrow(OPEN_FAILED);
    expect(() => box.open(`${sealed}A`)).toThrow(OPEN_FAILED);
  });

  it.each([
    ['an empty string', ''],
    ['plain text', 'not sealed'],
    ['a missing part', 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA'],
    ['an extra part', 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA.AAAA'],
    ['an unknown version', 'v2.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA'],
    ['a short IV', 'v1.AAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA'],
    ['a short tag', 'v1.AAAAAAAAAAAAAAAA.AAAA.AAAA'],
    ['characters outside base64url', 'v1.AAAAAAAAAAAAAAA+.AAAAAAAAAAAAAAAAAAAAAA.AAAA'],
  ])('fails to open %s', (_name, sealed) => {
    expect(() => box.open(sealed)).toThrow(OPEN_FAILED);
  });

  it('fails to open with a version-swapped valid value', () => {
    expect(() => box.open(box.seal(secret).replace(/^v1\./, 'v2.'))).toThrow(OPEN_FAILED);
  });

  it.each([
    ['an empty key', ''],
    ['a 16-byte key', randomBytes(16).toString('base64')],
    ['a 33-byte key', randomBytes(33).toString('base64')],
    ['a hex key', randomBytes(32).toString('hex')],
    ['a key with junk characters', `${randomBytes(32).toString('base64')}!`],
  ])('rejects %s', (_name, badKey) => {
    const error = errorOf(() => new SecretBox(badKey));
    expect(error.message).toBe('SecretBox key must be 32 bytes encoded as standard base64');
    if (badKey !== '') expect(error.message).not.toContain(badKey);
  });

  it('never puts the plaintext or the key in error messages', () => {
    const sealed = box.seal(secret);
    const other = new SecretBox(SecretBox.generateKey());
    const messages = [
      errorOf(() => other.open(sealed)),
      errorOf(() => box.open(flipBit(sealed, 3))),
      errorOf(() => box.open(`${sealed}.`)),
      errorOf(() => box.open(secret)),
    ].map((error) => `${error.message}\n${String(error.stack)}`);
    for (const message of messages) {
      expect(message).toContain(OPEN_FAILED);
      expect(message).not.toContain(secret);
      expect(message).not.toContain(secret.slice('whsec_'.length));
      expect(message).not.toContain(key);
    }
  });

  it('opens with a box of the same purpose only: neither the key itself nor another purpose opens it', () => {
    const key = SecretBox.generateKey();
    const sealed = SecretBox.forPurpose(key, 'unsubscribe tokens v1').seal(secret);
    expect(SecretBox.forPurpose(key, 'unsubscribe tokens v1').open(sealed)).toBe(secret);
    expect(() => new SecretBox(key).open(sealed)).toThrow(OPEN_FAILED);
    expect(() => SecretBox.forPurpose(key, 'stored emails').open(sealed)).toThrow(OPEN_FAILED);
    expect(() => SecretBox.forPurpose('not a key', 'unsubscribe tokens v1')).toThrow(/32 bytes/);
  });
});
