import { verify } from '@node-rs/argon2';
import { hashing, HASHING_CONCURRENCY, HASHING_QUEUE_LIMIT, hashPassword, PasswordHashingBusy, passwordMatches } from './password.js';

describe('password hashing', () => {
  it('produces a salted argon2id hash that verifies only the right password', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$/);
    expect(first).not.toBe(second);
    await expect(verify(first, 'correct horse battery staple')).resolves.toBe(true);
    await expect(verify(first, 'wrong password')).resolves.toBe(false);
  });

  it('runs at most HASHING_CONCURRENCY hashes and checks at once, however many are asked for together', async () => {
    let most = 0;
    const sample = setInterval(() => (most = Math.max(most, hashing.active)), 1);
    const stored = await hashPassword('a password to check');
    const work = [
      ...Array.from({ length: 8 }, () => hashPassword('a burst of signups')),
      ...Array.from({ length: 8 }, () => passwordMatches(stored, 'a password to check')),
      ...Array.from({ length: 4 }, () => passwordMatches(undefined, 'an unknown email')),
    ];
    const results = await Promise.all(work);
    clearInterval(sample);
    expect(most).toBe(HASHING_CONCURRENCY);
    expect(hashing.active).toBe(0);
    expect(results.slice(8, 16)).toEqual(Array(8).fill(true));
    expect(results.slice(16)).toEqual(Array(4).fill(false));
  });

  it('refuses as busy (rate_limited, Retry-After) what would wait behind HASHING_QUEUE_LIMIT others', async () => {
    const work = Array.from({ length: HASHING_CONCURRENCY + HASHING_QUEUE_LIMIT + 3 }, () =>
      passwordMatches(undefined, 'x').then(
        () => 'done',
        (err: unknown) => err,
      ),
    );
    const results = await Promise.all(work);
    const busy = results.filter((r) => r instanceof PasswordHashingBusy);
    expect(busy).toHaveLength(3);
    expect(busy[0]).toMatchObject({ code: 'rate_limited', headers: { 'retry-after': '1' } });
    expect(results.filter((r) => r === 'done')).toHaveLength(HASHING_CONCURRENCY + HASHING_QUEUE_LIMIT);
    expect(hashing.active).toBe(0);
  });
});
