import { remindersServiceApp } from '#apps/reminders-service';
import { sha256Hex } from '#libs/contracts';
import { eventually, type FakeSmtp, type FakeSmtpMessage, startFakeSmtp } from '#libs/testing';
import { PASSWORD } from '../testing/oauth-flow.js';
import { AccountEmails } from './account-emails.js';
import { bootAccountServer, formsWithButton, type PageBrowser, startCodeFlow } from './account-testing.js';
import { ACCOUNT_EMAIL_LIMITS } from './login-limiter.js';

let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await smtp.close();
});

const server = bootAccountServer('account_email', () => [
  {
    definition: remindersServiceApp,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'no-reply@signups.example.test', EMAIL_POLL_MS: '50' },
  },
]);

const NEW_PASSWORD = 'a long enough password';
const ANOTHER_PASSWORD = 'another long enough password';
const LINK = /https?:\/\/[^\s"<>]+\/account\/(?:verify|reset-password)\/[A-Za-z0-9_-]{43}/;

let unique = 0;
const newEmail = () => `email${++unique}.${Date.now()}@example.test`;

/** The messages the fake SMTP server received for an address, in order. */
const mailTo = (address: string): FakeSmtpMessage[] => smtp.messages.filter((m) => m.to.includes(address));

/** Waits for the `n`th message to an address and answers its link, checking that both parts carry it. */
async function linkOf(address: string, n = 1): Promise<{ link: string; mail: FakeSmtpMessage }> {
  const mail = await eventually(() => {
    const received = mailTo(address);
    expect(received.length).toBeGreaterThanOrEqual(n);
    return received[n - 1]!;
  });
  const link = LINK.exec(mail.parsed.text ?? '')?.[0];
  if (!link) throw new Error(`no link in ${mail.parsed.text}`);
  expect(mail.parsed.html).toContain(`href="${link}"`);
  return { link, mail };
}

/** The path of a link on the auth server. */
const pathOf = (link: string) => new URL(link).pathname;

async function signUp(browser: PageBrowser, email: string, returnTo?: string): Promise<Response> {
  const form = await browser.page(`/account/signup${returnTo === undefined ? '' : `?return=${encodeURIComponent(returnTo)}`}`);
  return browser.submit(form.html, 'Create account', [
    ['email', email],
    ['password', NEW_PASSWORD],
    ['organization', 'Verified Choir'],
  ]);
}

async function signIn(browser: PageBrowser, email: string, password = PASSWORD): Promise<Response> {
  const form = await browser.page('/account/login');
  return browser.submit(form.html, 'Sign in', [
    ['email', email],
    ['password', password],
  ]);
}

async function emailVerifiedAt(email: string): Promise<Date | null> {
  const [row] = await server.dataSource().query(`SELECT email_verified_at FROM "auth"."users" WHERE lower(email) = lower($1)`, [email]);
  return (row as { email_verified_at: Date | null }).email_verified_at;
}

async function keysOfUser(email: string): Promise<number> {
  const [row] = await server
    .dataSource()
    .query(`SELECT count(*)::int AS n FROM "auth"."api_keys" k JOIN "auth"."users" u ON u.id = k.user_id WHERE u.email = $1`, [email]);
  return (row as { n: number }).n;
}

/** Opens a verification link in a browser of its own (not signed in) and presses its button. */
async function verifyWith(link: string): Promise<Response> {
  const browser = server.browser();
  const page = await browser.page(pathOf(link));
  expect(page.status).toBe(200);
  return browser.submit(page.html, 'Verify my email address');
}

describe('email verification', () => {
  it('mails a link at signup; opening it verifies nothing until its button is pressed, and only then may the owner create API keys', async () => {
    const browser = server.browser();
    const email = newEmail();
    expect((await signUp(browser, email)).status).toBe(303);
    const { link, mail } = await linkOf(email);
    expect(mail.parsed.subject).toBe('Verify your email address for Signups');
    expect(mail.parsed.from?.value).toEqual([{ name: 'Signups', address: 'no-reply@signups.example.test' }]);
    expect(mail.parsed.text).toContain('If you did not ask for this, ignore this email');
    expect(link.startsWith(`${server.url}/account/verify/`)).toBe(true);
    const token = link.slice(link.lastIndexOf('/') + 1);
    const tokens = await server.dataSource().query(`SELECT id, purpose FROM "auth"."account_tokens" WHERE id = $1`, [sha256Hex(token)]);
    expect(tokens).toEqual([{ id: sha256Hex(token), purpose: 'verify_email' }]);

    const overview = await browser.page('/account');
    expect(overview.html).toContain('Resend the verification email');
    const keysPage = await browser.page('/account/api-keys');
    expect(keysPage.html).not.toContain('>Create key</button>');
    expect(keysPage.html).toContain('Verify your email address');
    const [resendForm] = formsWithButton(keysPage.html, 'Resend the verification email');
    const refused = await browser.request(`/account/api-keys`, [
      ...resendForm!.hidden,
      ['name', 'k'],
      ['mode', 'test'],
      ['scope', 'signups:read'],
    ]);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Verify your email address first');
    expect(await keysOfUser(email)).toBe(0);

    const opened = await server.browser().page(pathOf(link));
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-security-policy')).toContain("form-action 'self'");
    expect(await emailVerifiedAt(email)).toBeNull();
    const verified = await verifyWith(link);
    expect(verified.status).toBe(200);
    expect(await verified.text()).toContain('your email address is verified');
    expect(await emailVerifiedAt(email)).toBeInstanceOf(Date);

    const page = await browser.page('/account/api-keys');
    expect(page.html).not.toContain('Resend the verification email');
    const created = await browser.submit(page.html, 'Create key', [
      ['name', 'After verification'],
      ['mode', 'test'],
      ['scope', 'signups:read'],
    ]);
    expect(created.status).toBe(201);
    expect(await keysOfUser(email)).toBe(1);
  });

  it('uses a link once', async () => {
    const email = newEmail();
    await signUp(server.browser(), email);
    const { link } = await linkOf(email);
    expect((await verifyWith(link)).status).toBe(200);
    const again = await server.browser().page(pathOf(link));
    expect(again.status).toBe(404);
    expect(again.html).toContain('This link is no longer valid');
  });

  it('refuses consent until the address is verified, resends the link from there (the older one stops working), and then asks for consent', async () => {
    const browser = server.browser();
    const flow = await startCodeFlow(server, browser);
    const email = newEmail();
    expect((await signUp(browser, email, flow.loginPath)).headers.get('location')).toBe(flow.loginPath);
    const login = await browser.page(flow.loginPath);
    const { page: blocked } = await browser.follow(
      await browser.submit(login.html, 'Sign in', [
        ['email', email],
        ['password', NEW_PASSWORD],
      ]),
    );
    expect(blocked?.status).toBe(403);
    expect(blocked?.html).toContain(`open the link we emailed to ${email}`);
    expect(blocked?.html).not.toContain('>Approve</button>');

    // A consent posted anyway (with the interaction's csrf token) grants nothing.
    const [resendForm] = formsWithButton(blocked!.html, 'Resend the verification email');
    const forced = await browser.request(resendForm!.action.replace(/\/resend$/, '/confirm'), [
      ...resendForm!.hidden,
      ['scope', 'signups:read'],
    ]);
    expect(forced.status).toBe(403);
    expect(forced.headers.get('location')).toBeNull();

    const { link: first } = await linkOf(email);
    const resent = await browser.request(resendForm!.action, resendForm!.hidden);
    expect(resent.status).toBe(200);
    expect(await resent.text()).toContain(`We sent a new link to ${email}.`);
    const { link: second } = await linkOf(email, 2);
    expect((await server.browser().page(pathOf(first))).status).toBe(404);
    expect((await verifyWith(second)).status).toBe(200);

    const continuing = /<a href="([^"]+)">I have verified my address: continue<\/a>/.exec(blocked!.html)?.[1];
    const consent = await browser.page(continuing ?? '');
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('>Approve</button>');
    const { callback } = await browser.follow(await browser.submit(consent.html, 'Approve', [['scope', 'signups:read']]));
    expect(callback?.searchParams.get('code')).toMatch(/^ac_/);
  });

  it('refuses a device approval until the address is verified', async () => {
    const registered = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Device CLI',
        grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'none',
        scope: 'signups:read',
      }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const email = newEmail();
    const browser = server.browser();
    await signUp(browser, email);
    const started = await fetch(`${server.url}/oauth/device_authorization`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, scope: 'signups:read' }).toString(),
    });
    const { user_code: userCode } = (await started.json()) as { user_code: string };
    const codePage = await browser.page(`/oauth/device?user_code=${encodeURIComponent(userCode)}`);
    const { page: login } = await browser.follow(await browser.submit(codePage.html, 'Continue', [['user_code', userCode]]));
    const { page: blocked } = await browser.follow(
      await browser.submit(login!.html, 'Sign in', [
        ['email', email],
        ['password', NEW_PASSWORD],
      ]),
    );
    expect(blocked?.status).toBe(403);
    expect(blocked?.html).toContain('Resend the verification email');
    expect(blocked?.html).not.toContain('>Approve</button>');
  });

  it('sends the link again at most 3 times an hour per address: then 429 with Retry-After and a page saying when', async () => {
    const browser = server.browser();
    const email = newEmail();
    await signUp(browser, email);
    const resend = async () => browser.submit((await browser.page('/account')).html, 'Resend the verification email');
    for (let i = 0; i < ACCOUNT_EMAIL_LIMITS.perEmail; i++) expect((await resend()).status).toBe(200);
    const refused = await resend();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(ACCOUNT_EMAIL_LIMITS.windowSeconds - 60);
    expect(await refused.text()).toContain('Too many verification emails asked for. Try again in 60 minutes.');
    await eventually(() => expect(mailTo(email)).toHaveLength(1 + ACCOUNT_EMAIL_LIMITS.perEmail));
  });

  it('counts users the admin API creates (the demo account among them) as verified', async () => {
    const { email } = await server.createUser('Admin Choir');
    expect(await emailVerifiedAt(email)).toBeInstanceOf(Date);
    const browser = server.browser();
    await signIn(browser, email);
    expect((await browser.page('/account')).html).not.toContain('Resend the verification email');
  });
});

describe('password reset', () => {
  /** Asks for a reset link from the sign-in page's "Forgot your password?" link. */
  async function askForReset(browser: PageBrowser, email: string): Promise<Response> {
    const login = await browser.page('/account/login');
    expect(login.html).toContain('<a href="/account/forgot-password">Forgot your password?</a>');
    const form = await browser.page('/account/forgot-password');
    return browser.submit(form.html, 'Send reset link', [['email', email]]);
  }

  async function oauthSessions(userId: string): Promise<number> {
    const [row] = await server
      .dataSource()
      .query(`SELECT count(*)::int AS n FROM "auth"."oauth_store" WHERE model = 'Session' AND payload ->> 'accountId' = $1`, [userId]);
    return (row as { n: number }).n;
  }

  it('mails a single-use link that sets a new password, ends every other session, and signs this browser in', async () => {
    const { email, user } = await server.createUser('Reset Choir');
    const elsewhere = server.browser();
    expect((await signIn(elsewhere, email)).status).toBe(303);
    const app = server.browser();
    const flow = await startCodeFlow(server, app);
    await app.follow(
      await app.submit(flow.login.html, 'Sign in', [
        ['email', email],
        ['password', PASSWORD],
      ]),
    );
    expect(await oauthSessions(user.id)).toBe(1);

    const browser = server.browser();
    const asked = await askForReset(browser, email);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(`If an account exists for ${email}, we sent it a link`);
    const { link, mail } = await linkOf(email);
    expect(mail.parsed.subject).toBe('Reset your Signups password');
    expect(mail.parsed.text).toContain('Setting a new password signs you out everywhere else.');
    expect(link.startsWith(`${server.url}/account/reset-password/`)).toBe(true);

    const form = await browser.page(pathOf(link));
    expect(form.status).toBe(200);
    expect(form.html).toContain('<label for="password">New password</label>');
    const short = await browser.submit(form.html, 'Set new password', [['password', 'short']]);
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('Choose a password of at least 10 characters.');
    const changed = await browser.submit(form.html, 'Set new password', [['password', ANOTHER_PASSWORD]]);
    expect(changed.status).toBe(303);
    expect(changed.headers.get('location')).toBe('/account?password=changed');
    const landed = await browser.page('/account?password=changed');
    expect(landed.status).toBe(200);
    expect(landed.html).toContain('Your password was changed, and every other session was signed out.');

    expect((await elsewhere.request('/account')).headers.get('location')).toBe('/account/login');
    expect(await oauthSessions(user.id)).toBe(0);
    // The browser's OAuth session ended: a new authorization asks it to sign in again, not for consent.
    expect((await startCodeFlow(server, app)).login.html).toContain('>Sign in</button>');

    expect((await signIn(server.browser(), email, PASSWORD)).status).toBe(401);
    expect((await signIn(server.browser(), email, ANOTHER_PASSWORD)).status).toBe(303);
    const reused = await browser.submit(form.html, 'Set new password', [['password', 'yet another long password']]);
    expect(reused.status).toBe(404);
    expect(await reused.text()).toContain('This link is no longer valid');
    expect((await browser.page(pathOf(link))).status).toBe(404);
  });

  it('refuses a link past its hour, and changes nothing', async () => {
    const { email, user } = await server.createUser('Late Choir');
    const browser = server.browser();
    await askForReset(browser, email);
    const { link } = await linkOf(email);
    const form = await browser.page(pathOf(link));
    const [moved] = await server
      .dataSource()
      .query(`UPDATE "auth"."account_tokens" SET expires_at = now() - interval '1 second' WHERE user_id = $1 RETURNING id`, [user.id]);
    expect(moved).toHaveLength(1);
    expect((await browser.page(pathOf(link))).status).toBe(404);
    const late = await browser.submit(form.html, 'Set new password', [['password', ANOTHER_PASSWORD]]);
    expect(late.status).toBe(404);
    expect((await signIn(server.browser(), email, PASSWORD)).status).toBe(303);
  });

  it('answers a link path of another shape as no link, never echoing it as the action of a form', async () => {
    const browser = server.browser();
    const form = await browser.page('/account/forgot-password');
    const res = await browser.submit(form.html, 'Send reset link', [['email', 'not an address']]);
    expect(res.status).toBe(400);
    const csrf = formsWithButton(await res.text(), 'Send reset link')[0]!.hidden;
    const odd = await browser.request('/account/reset-password/..%2F..%2Faccount%2Flogin', [...csrf, ['password', 'short']]);
    expect(odd.status).toBe(404);
    const html = await odd.text();
    expect(html).toContain('This link is no longer valid');
    expect(html).not.toContain('<form');
  });

  it('gives a link that works for one hour', async () => {
    const { email, user } = await server.createUser('Hour Choir');
    await askForReset(server.browser(), email);
    await linkOf(email);
    const [row] = await server
      .dataSource()
      .query(`SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM "auth"."account_tokens" WHERE user_id = $1`, [
        user.id,
      ]);
    expect(row).toEqual({ seconds: 3600 });
  });

  it('answers an address without an account exactly as one with, and mails nothing', async () => {
    const { email } = await server.createUser('Known Choir');
    const unknown = newEmail();
    const browser = server.browser();
    const known = await askForReset(browser, email);
    const stranger = await askForReset(browser, unknown);
    expect(stranger.status).toBe(known.status);
    expect((await stranger.text()).replaceAll(unknown, '<address>')).toBe((await known.text()).replaceAll(email, '<address>'));
    await server.running.app.get(AccountEmails).settled();
    await linkOf(email);
    expect(await server.dataSource().query(`SELECT 1 FROM "reminders"."emails" WHERE to_address = $1`, [unknown])).toEqual([]);
    expect(mailTo(unknown)).toEqual([]);
  });

  it('takes at most 3 requests an hour per address, whether it has an account or not: then 429 with Retry-After', async () => {
    const address = newEmail();
    const browser = server.browser();
    for (let i = 0; i < ACCOUNT_EMAIL_LIMITS.perEmail; i++) expect((await askForReset(browser, address)).status).toBe(200);
    const refused = await askForReset(server.browser(), address.toUpperCase());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('Too many password resets asked for. Try again in');
  });
});
