import { hash } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) PHC string with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}
