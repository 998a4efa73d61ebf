import { hash, verify } from '@node-rs/argon2';
import { ProblemError } from '#libs/problem';

/**
 * At most this many argon2 computations run at once: each holds one of libuv's four threads
 * for tens of milliseconds, and the threads also serve DNS lookups and file reads. The rest wait
 * their turn, up to HASHING_QUEUE_LIMIT; beyond that the request is refused as busy.
 */
export const HASHING_CONCURRENCY = 2;
export const HASHING_QUEUE_LIMIT = 64;

/** A password could not be hashed or checked now: too many are waiting. The pages answer 429, the admin API rate_limited. */
export class PasswordHashingBusy extends ProblemError {
  static readonly RETRY_AFTER_SECONDS = 1;

  constructor() {
    super('rate_limited', 'Too many sign-ins at once. Try again in a moment.', {
      headers: { 'retry-after': String(PasswordHashingBusy.RETRY_AFTER_SECONDS) },
    });
  }
}

/** Runs argon2 work HASHING_CONCURRENCY at a time, in arrival order. */
class HashingGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** How many computations run now (for tests and metrics). */
  get active(): number {
    return this.running;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= HASHING_CONCURRENCY) {
      if (this.waiting.length >= HASHING_QUEUE_LIMIT) throw new PasswordHashingBusy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

export const hashing = new HashingGate();

/** Sets the busy answer's Retry-After on a page's reply and gives its message. */
export function busy(reply: { header(name: string, value: string): unknown }, err: PasswordHashingBusy): string {
  reply.header('retry-after', String(PasswordHashingBusy.RETRY_AFTER_SECONDS));
  return err.detail ?? err.message;
}

/** argon2id (the library's default algorithm) PHC string with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hashing.run(() => hash(password));
}

/** A hash of a password nobody has, checked when the email is unknown so both failures take as long. */
let decoyHash: Promise<string> | undefined;

/** Whether the password matches the PHC string; a missing hash is checked against a decoy. */
export async function passwordMatches(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash === undefined) {
    decoyHash ??= hash('decoy password never used');
    const decoy = await decoyHash;
    await hashing
      .run(() => verify(decoy, password))
      .catch((err: unknown) => {
        if (err instanceof PasswordHashingBusy) throw err;
      });
    return false;
  }
  return hashing
    .run(() => verify(passwordHash, password))
    .catch((err: unknown) => {
      if (err instanceof PasswordHashingBusy) throw err;
      return false;
    });
}
