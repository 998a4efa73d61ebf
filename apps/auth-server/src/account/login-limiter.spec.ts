import { ACCOUNT_EMAIL_LIMITS, LOGIN_LIMITS, LoginLimiter, SIGNUP_LIMITS, tooManyAttemptsMessage } from './login-limiter.js';

async function fail(limiter: LoginLimiter, times: number, email: string, ip: string): Promise<void> {
  for (let i = 0; i < times; i++) expect(await limiter.attempt(email, ip)).toEqual({ allowed: true });
}

/** `count` addresses of a documentation range, each its own client. */
function ips(count: number, base = '198.51.100'): string[] {
  return Array.from({ length: count }, (_, i) => `${base}.${i + 1}`);
}

describe('login limiter in memory', () => {
  it('blocks an account and IP pair, whatever the case of its email, once it used its 5 attempts within 15 minutes', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    await fail(limiter, LOGIN_LIMITS.pairFailures - 1, 'Ann@Example.test', '192.0.2.1');
    await fail(limiter, 1, 'ANN@example.test ', '192.0.2.1');
    const blocked = await limiter.attempt('ann@example.test', '192.0.2.1');
    expect(blocked).toMatchObject({ allowed: false });
    expect(blocked.allowed === false && blocked.retryAfterSeconds).toBeGreaterThan(LOGIN_LIMITS.windowSeconds - 5);
  });

  it('keeps letting the account in from another IP while one IP is blocked on it', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    await fail(limiter, LOGIN_LIMITS.pairFailures, 'owner@example.test', '192.0.2.2');
    expect(await limiter.attempt('owner@example.test', '192.0.2.2')).toMatchObject({ allowed: false });
    expect(await limiter.attempt('owner@example.test', '192.0.2.3')).toEqual({ allowed: true });
  });

  it('slows, not locks, an account guessed at from many IPs: past 20 failures, one attempt per slot from anywhere', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (const ip of ips(LOGIN_LIMITS.accountFailures)) await fail(limiter, 1, 'gina@example.test', ip);
    expect(await limiter.attempt('gina@example.test', '203.0.113.1')).toEqual({ allowed: true });
    const slowed = await limiter.attempt('gina@example.test', '203.0.113.2');
    expect(slowed).toEqual({ allowed: false, retryAfterSeconds: LOGIN_LIMITS.slowedAccountSeconds });
    expect(await limiter.attempt('other@example.test', '203.0.113.2')).toEqual({ allowed: true });
  });

  it('lets exactly 5 of 30 parallel attempts of one pair through, and one slot of 30 parallel attempts on a slowed account', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    const pair = await Promise.all(Array.from({ length: 30 }, () => limiter.attempt('eve@example.test', '192.0.2.50')));
    expect(pair.filter((r) => r.allowed)).toHaveLength(LOGIN_LIMITS.pairFailures);

    for (const ip of ips(LOGIN_LIMITS.accountFailures, '198.51.101')) await fail(limiter, 1, 'hal@example.test', ip);
    const spread = await Promise.all(ips(30, '203.0.114').map((ip) => limiter.attempt('hal@example.test', ip)));
    expect(spread.filter((r) => r.allowed)).toHaveLength(1);
  });

  it('blocks a client IP once it used its 20 attempts, whichever accounts they named', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (let i = 0; i < LOGIN_LIMITS.ipFailures; i++) await fail(limiter, 1, `guess${i}@example.test`, '192.0.2.9');
    expect(await limiter.attempt('someone@example.test', '192.0.2.9')).toMatchObject({ allowed: false });
    expect(await limiter.attempt('someone@example.test', '192.0.2.10')).toEqual({ allowed: true });
  });

  it("does not count a blocked IP's attempt against the account it named", async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (let i = 0; i < LOGIN_LIMITS.ipFailures; i++) await fail(limiter, 1, `guess${i}@example.test`, '192.0.2.40');
    for (let i = 0; i < 10; i++) expect(await limiter.attempt('frank@example.test', '192.0.2.40')).toMatchObject({ allowed: false });
    await fail(limiter, LOGIN_LIMITS.pairFailures, 'frank@example.test', '192.0.2.41');
  });

  it("forgets a pair's failures after a successful sign-in, and does not count the success against the IP", async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    await fail(limiter, LOGIN_LIMITS.pairFailures, 'bob@example.test', '192.0.2.20');
    await limiter.succeeded('Bob@example.test', '192.0.2.20');
    await fail(limiter, LOGIN_LIMITS.pairFailures - 1, 'bob@example.test', '192.0.2.20');
    for (let i = 0; i < LOGIN_LIMITS.ipFailures - 2 * LOGIN_LIMITS.pairFailures + 2; i++)
      await fail(limiter, 1, `carol${i}@example.test`, '192.0.2.20');
    expect(await limiter.attempt('dave@example.test', '192.0.2.20')).toMatchObject({ allowed: false });
  });

  it('counts only the IP when no email was given', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    await fail(limiter, LOGIN_LIMITS.pairFailures, '', '192.0.2.30');
    expect(await limiter.attempt('', '192.0.2.31')).toEqual({ allowed: true });
  });
});

describe('limits by address', () => {
  it('counts an IPv6 /64 as one client, as the edges do, and an IPv4-mapped address as its IPv4', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (let i = 0; i < 3; i++) expect(await limiter.registration(`2001:db8:1:2::${i + 1}`)).toEqual({ allowed: true });
    expect(await limiter.registration('2001:db8:1:2:ffff::9')).toMatchObject({ allowed: false });
    expect(await limiter.registration('2001:db8:1:3::1')).toEqual({ allowed: true });
    for (let i = 0; i < LOGIN_LIMITS.pairFailures; i++)
      expect(await limiter.attempt('ivy@example.test', `::ffff:192.0.2.${i + 100}`.replace(/\d+$/, '100'))).toEqual({ allowed: true });
    expect(await limiter.attempt('ivy@example.test', '192.0.2.100')).toMatchObject({ allowed: false });
  });

  it('charges the IP, not the pair, for a refused slot of a slowed account', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (const ip of ips(LOGIN_LIMITS.accountFailures, '198.51.102')) await fail(limiter, 1, 'jo@example.test', ip);
    expect(await limiter.attempt('jo@example.test', '203.0.115.1')).toEqual({ allowed: true });
    for (let i = 0; i < LOGIN_LIMITS.ipFailures; i++)
      expect(await limiter.attempt('jo@example.test', '203.0.115.2')).toMatchObject({ allowed: false });
    expect(await limiter.attempt('someone-else@example.test', '203.0.115.2')).toMatchObject({ allowed: false });
  });
});

describe('signup limiter in memory', () => {
  it('lets an IP create 5 accounts an hour, counted whatever their email', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (let i = 0; i < SIGNUP_LIMITS.perIp; i++)
      expect(await limiter.signup(`new${i}@example.test`, '192.0.2.60')).toEqual({ allowed: true });
    const refused = await limiter.signup('another@example.test', '192.0.2.60');
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThan(SIGNUP_LIMITS.windowSeconds - 5);
    expect(await limiter.signup('another@example.test', '192.0.2.61')).toEqual({ allowed: true });
  });

  it('lets one email be tried 3 times an hour, from any IP and in any case, and gives the IP its count back when refused', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (const ip of ips(SIGNUP_LIMITS.perEmail)) expect(await limiter.signup('Taken@Example.test', ip)).toEqual({ allowed: true });
    expect(await limiter.signup('taken@example.test', '192.0.2.70')).toMatchObject({ allowed: false });
    for (let i = 0; i < SIGNUP_LIMITS.perIp; i++)
      expect(await limiter.signup(`fresh${i}@example.test`, '192.0.2.70')).toEqual({ allowed: true });
  });

  it('lets exactly 5 of 40 parallel signups from one IP through', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => limiter.signup(`burst${i}@example.test`, '192.0.2.80')));
    expect(results.filter((r) => r.allowed)).toHaveLength(SIGNUP_LIMITS.perIp);
  });
});

describe('registration limiter in memory', () => {
  it('lets an IP register as many clients an hour as configured, whatever other IPs do', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (let i = 0; i < 3; i++) expect(await limiter.registration('192.0.2.90')).toEqual({ allowed: true });
    expect(await limiter.registration('192.0.2.90')).toMatchObject({ allowed: false });
    expect(await limiter.registration('192.0.2.91')).toEqual({ allowed: true });
  });
});

describe('account email limiter in memory', () => {
  it.each(['verificationResend', 'passwordReset'] as const)('%s: 3 an hour per address, whatever its case and IP', async (kind) => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (const ip of ips(ACCOUNT_EMAIL_LIMITS.perEmail, '198.51.102'))
      expect(await limiter[kind]('Mia@Example.test', ip)).toEqual({ allowed: true });
    const refused = await limiter[kind]('mia@example.test ', '198.51.102.99');
    expect(refused).toMatchObject({ allowed: false });
    expect(refused.allowed === false && refused.retryAfterSeconds).toBeGreaterThan(ACCOUNT_EMAIL_LIMITS.windowSeconds - 5);
    expect(await limiter[kind]('other@example.test', '198.51.102.99')).toEqual({ allowed: true });
  });

  it.each(['verificationResend', 'passwordReset'] as const)('%s: 10 an hour per client IP, whichever addresses', async (kind) => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (let i = 0; i < ACCOUNT_EMAIL_LIMITS.perIp; i++)
      expect(await limiter[kind](`a${i}@example.test`, '192.0.2.100')).toEqual({ allowed: true });
    expect(await limiter[kind]('b@example.test', '192.0.2.100')).toMatchObject({ allowed: false });
    expect(await limiter[kind]('b@example.test', '192.0.2.101')).toEqual({ allowed: true });
  });

  it('counts resends and resets apart', async () => {
    const limiter = LoginLimiter.create(undefined, 'spec', 3);
    for (let i = 0; i < ACCOUNT_EMAIL_LIMITS.perEmail; i++) await limiter.verificationResend('nia@example.test', '192.0.2.110');
    expect(await limiter.passwordReset('nia@example.test', '192.0.2.110')).toEqual({ allowed: true });
  });
});

describe('refused attempt message', () => {
  it.each([
    [900, 'Try again in 15 minutes.'],
    [61, 'Try again in 2 minutes.'],
    [60, 'Try again in 1 minute.'],
    [59, 'Try again in 59 seconds.'],
    [1, 'Try again in 1 second.'],
  ])('says %i seconds as a whole number of minutes, or seconds under a minute', (seconds, end) => {
    expect(tooManyAttemptsMessage(seconds)).toBe(`Too many failed sign-in attempts. ${end}`);
  });
});
