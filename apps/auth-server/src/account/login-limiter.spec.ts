import { LOGIN_LIMITS, LoginLimiter, tooManyAttemptsMessage } from './login-limiter.js';

async function fail(limiter: LoginLimiter, times: number, email: string, ip: string): Promise<void> {
  for (let i = 0; i < times; i++) expect(await limiter.attempt(email, ip)).toEqual({ allowed: true });
}

describe('login limiter in memory', () => {
  it('blocks an account, whatever the case of its email, once it used its 5 attempts within 15 minutes', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec');
    await fail(limiter, LOGIN_LIMITS.accountFailures - 1, 'Ann@Example.test', '192.0.2.1');
    await fail(limiter, 1, 'ANN@example.test ', '192.0.2.3');
    const blocked = await limiter.attempt('ann@example.test', '192.0.2.4');
    expect(blocked).toMatchObject({ allowed: false });
    expect(blocked.allowed === false && blocked.retryAfterSeconds).toBeGreaterThan(LOGIN_LIMITS.windowSeconds - 5);
  });

  it('lets exactly 5 of 30 parallel attempts on one account through', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec');
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => limiter.attempt('eve@example.test', `198.51.100.${i}`)));
    expect(results.filter((r) => r.allowed)).toHaveLength(LOGIN_LIMITS.accountFailures);
  });

  it('blocks a client IP once it used its 20 attempts, whichever accounts they named', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec');
    for (let i = 0; i < LOGIN_LIMITS.ipFailures; i++) await fail(limiter, 1, `guess${i}@example.test`, '192.0.2.9');
    expect(await limiter.attempt('someone@example.test', '192.0.2.9')).toMatchObject({ allowed: false });
    expect(await limiter.attempt('someone@example.test', '192.0.2.10')).toEqual({ allowed: true });
  });

  it('does not count a blocked IP\'s attempt against the account it named', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec');
    for (let i = 0; i < LOGIN_LIMITS.ipFailures; i++) await fail(limiter, 1, `guess${i}@example.test`, '192.0.2.40');
    for (let i = 0; i < 10; i++) expect(await limiter.attempt('frank@example.test', '192.0.2.40')).toMatchObject({ allowed: false });
    await fail(limiter, LOGIN_LIMITS.accountFailures, 'frank@example.test', '192.0.2.41');
  });

  it('forgets an account\'s failures after a successful sign-in, and does not count the success against the IP', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec');
    await fail(limiter, LOGIN_LIMITS.accountFailures - 1, 'bob@example.test', '192.0.2.20');
    await fail(limiter, 1, 'bob@example.test', '192.0.2.20');
    await limiter.succeeded('Bob@example.test', '192.0.2.20');
    await fail(limiter, LOGIN_LIMITS.accountFailures, 'bob@example.test', '192.0.2.20');
    for (let i = 0; i < LOGIN_LIMITS.ipFailures - 2 * LOGIN_LIMITS.accountFailures + 1; i++) await fail(limiter, 1, `carol${i}@example.test`, '192.0.2.20');
    expect(await limiter.attempt('dave@example.test', '192.0.2.20')).toMatchObject({ allowed: false });
  });

  it('counts only the IP when no email was given', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec');
    await fail(limiter, LOGIN_LIMITS.accountFailures, '', '192.0.2.30');
    expect(await limiter.attempt('', '192.0.2.31')).toEqual({ allowed: true });
  });
});

describe('blocked sign-in message', () => {
  it.each([
    [900, 'Try again in 15 minutes.'],
    [61, 'Try again in 2 minutes.'],
    [60, 'Try again in 1 minute.'],
    [1, 'Try again in 1 minute.'],
  ])('rounds %i seconds up to whole minutes', (seconds, end) => {
    expect(tooManyAttemptsMessage(seconds)).toBe(`Too many failed sign-in attempts. ${end}`);
  });
});
