import { randomBytes } from 'node:crypto';
import { PASSWORD } from '../testing/oauth-flow.js';
import { bootAccountServer, type Page, type PageBrowser, startCodeFlow } from './account-testing.js';
import { LOGIN_LIMITS } from './login-limiter.js';

const server = bootAccountServer('login_rate_limit');

const BLOCKED = /<p role="alert">Too many failed sign-in attempts\. Try again in 15 minutes\.<\/p>/;

/** One sign-in attempt on the account login page. */
async function accountLogin(browser: PageBrowser, email: string, password: string): Promise<Page> {
  const form = await browser.page('/account/login');
  const res = await browser.submit(form.html, 'Sign in', [
    ['email', email],
    ['password', password],
  ]);
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Signs in on the OAuth login page of a flow started in this browser; its login page stays valid after failures. */
async function oauthLogin(browser: PageBrowser, loginHtml: string, email: string, password: string): Promise<Page> {
  const res = await browser.submit(loginHtml, 'Sign in', [
    ['email', email],
    ['password', password],
  ]);
  return { status: res.status, headers: res.headers, html: await res.text() };
}

function expectBlocked(page: Page): void {
  expect(page.status).toBe(429);
  const retryAfter = Number(page.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(LOGIN_LIMITS.windowSeconds - 60);
  expect(retryAfter).toBeLessThanOrEqual(LOGIN_LIMITS.windowSeconds);
  expect(page.html).toMatch(BLOCKED);
  expect(page.html).toContain('<button type="submit">Sign in</button>');
}

describe('account login rate limit', () => {
  it('blocks an account and IP pair after 5 failures without checking the password, while the account still signs in from elsewhere', async () => {
    const { email } = await server.createUser('Limited Choir');
    const browser = server.browser();
    for (let i = 0; i < LOGIN_LIMITS.pairFailures; i++) expect((await accountLogin(browser, email, 'wrong password')).status).toBe(401);

    expectBlocked(await accountLogin(browser, email.toUpperCase(), PASSWORD));
    expect(browser.cookies.has('account_session')).toBe(false);
    expect((await accountLogin(server.browser(), email, PASSWORD)).status).toBe(303);
  });

  it('slows an account guessed at from many IPs to one attempt every few seconds, and lets its owner in at the next slot', async () => {
    const { email } = await server.createUser('Besieged Choir');
    for (let i = 0; i < LOGIN_LIMITS.accountFailures; i++)
      expect((await accountLogin(server.browser(), email, 'wrong password')).status).toBe(401);
    expect((await accountLogin(server.browser(), email, 'wrong password')).status).toBe(401);
    const slowed = await accountLogin(server.browser(), email, PASSWORD);
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeLessThanOrEqual(LOGIN_LIMITS.slowedAccountSeconds);
    expect(slowed.html).toMatch(/Try again in \d seconds?\./);
    // The owner waits as asked (a refused slot costs their IP an attempt, so polling would not pay).
    await new Promise((resolve) => setTimeout(resolve, Number(slowed.headers.get('retry-after')) * 1000 + 200));
    expect((await accountLogin(server.browser(), email, PASSWORD)).status).toBe(303);
  });

  it('counts every spelling of an email that signs in to the same account as that account', async () => {
    const org = await server.admin<{ id: string }>('/admin/organizations', { name: 'Spelled Choir' });
    const email = `victim-${randomBytes(4).toString('hex')}@example.test`;
    await server.admin('/admin/users', { email, password: PASSWORD, organizationId: org.id });
    // Postgres lower-cases "İ" to "i", JavaScript to "i̇": both spellings are this account at sign-in.
    const spelled = email.replace('victim', 'vİctim');
    const browser = server.browser();
    for (let i = 0; i < LOGIN_LIMITS.pairFailures; i++) expect((await accountLogin(browser, spelled, 'wrong password')).status).toBe(401);
    expectBlocked(await accountLogin(browser, email, PASSWORD));
  });

  it("forgets the pair's failures on a successful sign-in", async () => {
    const { email } = await server.createUser('Forgetful Choir');
    const browser = server.browser();
    for (let i = 0; i < LOGIN_LIMITS.pairFailures - 1; i++) expect((await accountLogin(browser, email, 'wrong password')).status).toBe(401);
    expect((await accountLogin(browser, email, PASSWORD)).status).toBe(303);
    for (let i = 0; i < LOGIN_LIMITS.pairFailures; i++) expect((await accountLogin(browser, email, 'wrong password')).status).toBe(401);
    expectBlocked(await accountLogin(browser, email, PASSWORD));
  });

  it('blocks a client IP after 20 failures across accounts, while other IPs still sign in', async () => {
    const { email } = await server.createUser('Crowded Choir');
    const browser = server.browser();
    for (let i = 0; i < LOGIN_LIMITS.ipFailures; i++)
      expect((await accountLogin(browser, `guess${i}@example.test`, 'wrong password')).status).toBe(401);

    expectBlocked(await accountLogin(browser, email, PASSWORD));
    expect((await accountLogin(server.browser(), email, PASSWORD)).status).toBe(303);
  });
});

describe('OAuth login rate limit', () => {
  it('blocks an account and IP pair after 5 failures on the OAuth login page without checking the password', async () => {
    const { email } = await server.createUser('Oauth Limited Choir');
    const browser = server.browser();
    const { login } = await startCodeFlow(server, browser);
    for (let i = 0; i < LOGIN_LIMITS.pairFailures; i++)
      expect((await oauthLogin(browser, login.html, email, 'wrong password')).status).toBe(401);

    expectBlocked(await oauthLogin(browser, login.html, email, PASSWORD));
  });

  it("forgets the pair's failures on a successful OAuth sign-in", async () => {
    const { email } = await server.createUser('Oauth Forgetful Choir');
    const browser = server.browser();
    const first = await startCodeFlow(server, browser);
    for (let i = 0; i < LOGIN_LIMITS.pairFailures - 1; i++)
      expect((await oauthLogin(browser, first.login.html, email, 'wrong password')).status).toBe(401);
    expect((await oauthLogin(browser, first.login.html, email, PASSWORD)).status).toBe(303);

    // The sign-in above left this browser signed in: the next flow starts from the same IP without its cookies.
    browser.cookies.clear();
    const second = await startCodeFlow(server, browser);
    for (let i = 0; i < LOGIN_LIMITS.pairFailures; i++)
      expect((await oauthLogin(browser, second.login.html, email, 'wrong password')).status).toBe(401);
    expectBlocked(await oauthLogin(browser, second.login.html, email, PASSWORD));
  });

  it('blocks a client IP after 20 failures on the OAuth login page', async () => {
    const { email } = await server.createUser('Oauth Crowded Choir');
    const browser = server.browser();
    const { login } = await startCodeFlow(server, browser);
    for (let i = 0; i < LOGIN_LIMITS.ipFailures; i++)
      expect((await oauthLogin(browser, login.html, `guess${i}@example.test`, 'wrong password')).status).toBe(401);

    expectBlocked(await oauthLogin(browser, login.html, email, PASSWORD));
  });

  it('counts failures on both login pages together', async () => {
    const { email } = await server.createUser('Shared Choir');
    const browser = server.browser();
    const { login } = await startCodeFlow(server, browser);
    for (let i = 0; i < 3; i++) expect((await accountLogin(browser, email, 'wrong password')).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await oauthLogin(browser, login.html, email, 'wrong password')).status).toBe(401);

    expectBlocked(await oauthLogin(browser, login.html, email, PASSWORD));
    expectBlocked(await accountLogin(browser, email, PASSWORD));
  });
});
