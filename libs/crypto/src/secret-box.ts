import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';
const OPEN_FAILED = 'sealed value cannot be opened';

/**
 * A 32-byte key for one purpose, derived (HKDF-SHA256) from a base64 key of the environment: one
 * secret serves several purposes, and what is made for one is never accepted for another.
 */
export function deriveKey(keyBase64: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(keyBase64, 'base64'), Buffer.alloc(0), purpose, KEY_BYTES));
}

/** Decodes a base64url part of a sealed value, rejecting anything but its canonical encoding. */
function decodePart(part: string): Buffer {
  const bytes = Buffer.from(part, 'base64url');
  if (bytes.toString('base64url') !== part) {
    throw new Error(OPEN_FAILED);
  }
  return bytes;
}

/**
 * Keeps secrets that must be read back (webhook signing secrets, confirmation tokens, stored emails) encrypted at
 * rest with AES-256-GCM under a key from the environment. A value that was tampered with, sealed
 * under another key or is no sealed value at all cannot be opened; the error never names the value
 * or the key.
 */
export class SecretBox {
  private readonly key: Buffer;

  /** Creates a box from a base64-encoded 32-byte key. */
  constructor(keyBase64: string) {
    this.key = SecretBox.checkedKey(keyBase64);
  }

  private static checkedKey(keyBase64: string): Buffer {
    const key = Buffer.from(keyBase64, 'base64');
    if (key.length !== KEY_BYTES || key.toString('base64') !== keyBase64) {
      throw new Error(`SecretBox key must be ${KEY_BYTES} bytes encoded as standard base64`);
    }
    return key;
  }

  /** A box under a key derived from `keyBase64` for `purpose` (deriveKey): it opens only what a box of the same purpose sealed. */
  static forPurpose(keyBase64: string, purpose: string): SecretBox {
    return new SecretBox(deriveKey(SecretBox.checkedKey(keyBase64).toString('base64'), purpose).toString('base64'));
  }

  /** Generates a random key suitable for the constructor: base64 of 32 random bytes. */
  static generateKey(): string {
    return randomBytes(KEY_BYTES).toString('base64');
  }

  /** Encrypts a value as `v1.<iv>.<tag>.<ciphertext>` (base64url parts) with a fresh IV. */
  seal(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** Decrypts a value made by `seal`; throws on a wrong key, tampering or malformed input. */
  open(sealed: string): string {
    const parts = sealed.split('.');
    if (parts.length !== 4 || parts[0] !== VERSION) {
      throw new Error(OPEN_FAILED);
    }
    const [iv, tag, ciphertext] = parts.slice(1).map(decodePart);
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
      throw new Error(OPEN_FAILED);
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(OPEN_FAILED);
    }
  }
}
