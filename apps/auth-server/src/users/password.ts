import { hash, verify } from '@node-rs/argon2';

/** argon2id (the library's default algorithm) PHC string with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A hash of a password nobody has, checked when the email is unknown so both failures take as long. */
let decoyHash: Promise<string> | undefined;

/** Whether the password matches the PHC string; a missing hash is checked against a decoy. */
export async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash === undefined) {
    decoyHash ??= hash('decoy password never used');
    await verify(await decoyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
