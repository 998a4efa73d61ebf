import { verify } from '@node-rs/argon2';
import { hashPassword } from './password.js';

describe('password hashing', () => {
  it('produces a salted argon2id hash that verifies only the right password', async () => {
    const first = await hashPassword('correct horse battery staple');
    const second = await hashPassword('correct horse battery staple');
    expect(first).toMatch(/^\$argon2id\$/);
    expect(first).not.toBe(second);
    await expect(verify(first, 'correct horse battery staple')).resolves.toBe(true);
    await expect(verify(first, 'wrong password')).resolves.toBe(false);
  });
});
