import { createHash } from 'node:crypto';
import { ACCESS_TOKEN_CLAIMS, type OrganizationView, type Principal } from '#libs/contracts';
import { eventually, ONE_MIB } from '#libs/testing';
import { STYLESHEET, STYLESHEET_PATH } from '#libs/web';
import { hashApiKey } from '../api-keys/api-key-secret.js';
import { FIELD_MAX_LENGTH } from '../interactions/form.js';
import { type Field, jwtPayload, PASSWORD } from '../testing/oauth-flow.js';
import { bootAccountServer, formsWithButton, type PageBrowser, REDIRECT_URI, startCodeFlow } from './account-testing.js';
import { SIGNUP_LIMITS } from './login-limiter.js';

const server = bootAccountServer('account_pages');
const events = server.collect(['auth.apikey.revoked', 'auth.oauth.grant_revoked']);

const NEW_PASSWORD = 'a long enough password';
const ACCOUNT_CSP = "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function csrfOf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no csrf field in ${html}`);
  return token;
}

async function signUp(
  browser: PageBrowser,
  fields: { email: string; password?: string; organization?: string; timeZone?: string },
  returnTo?: string,
): Promise<Response> {
  const form = await browser.page(`/account/signup${returnTo === undefined ? '' : `?return=${encodeURIComponent(returnTo)}`}`);
  return browser.submit(form.html, 'Create account', [
    ['email', fields.email],
    ['password', fields.password ?? NEW_PASSWORD],
    ['organization', fields.organization ?? 'Signup Choir'],
    ...(fields.timeZone === undefined ? [] : [['timeZone', fields.timeZone] as Field]),
  ]);
}

async function organization(id: string): Promise<OrganizationView> {
  const res = await fetch(`${server.url}/admin/organizations/${id}`, { headers: { authorization: 'Bearer account_pages-admin-token' } });
  return (await res.json()) as OrganizationView;
}

async function signIn(browser: PageBrowser, email: string, password = PASSWORD): Promise<Response> {
  const form = await browser.page('/account/login');
  return browser.submit(form.html, 'Sign in', [
    ['email', email],
    ['password', password],
  ]);
}

/** A browser signed in to the account pages as a new user of a new organization (or of `organizationId`). */
async function signedIn(role?: 'owner' | 'admin' | 'member', organizationId?: string) {
  const created = await server.createUser('Keys Choir', role, organizationId);
  const browser = server.browser();
  expect((await signIn(browser, created.email)).status).toBe(303);
  return { ...created, browser };
}

function orgIdIn(html: string): string {
  const id = /href="\/account\/api-keys\?org=([^"]+)"/.exec(html)?.[1];
  if (!id) throw new Error(`no organization link in ${html}`);
  return id;
}

async function verifyKey(key: string): Promise<Principal> {
  return server.running.context.bus.request('auth.apikeys.verify', { keyHash: hashApiKey(key) });
}

let unique = 0;
const newEmail = () => `new${++unique}.${Date.now()}@example.test`;

describe('the look of the pages', () => {
  it('serves the shared stylesheet at its hashed address, cached for a year, and 404 at any other asset address', async () => {
    const res = await fetch(`${server.url}${STYLESHEET_PATH}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe(STYLESHEET);
    expect((await fetch(`${server.url}/assets/site-0000000000000000.css`)).status).toBe(404);
  });

  it('links the stylesheet from every account page, with no inline style, and allows only it by CSP', async () => {
    const { browser } = await signedIn();
    for (const path of [
      '/account/signup',
      '/account/login',
      '/account/forgot-password',
      '/account',
      '/account/api-keys',
      '/account/apps',
    ]) {
      const page = await browser.page(path);
      expect({ path, status: page.status, csp: page.headers.get('content-security-policy') }).toEqual({
        path,
        status: 200,
        csp: ACCOUNT_CSP,
      });
      expect(page.html).toContain(`<link rel="stylesheet" href="${STYLESHEET_PATH}">`);
      expect(page.html).not.toMatch(/<style|style=|<script/i);
    }
  });

  it('shows the signed-in navigation in the site header, the current page marked', async () => {
    const { browser } = await signedIn();
    const html = (await browser.page('/account/api-keys')).html;
    expect(html).toMatch(/<header class="site-header">[\s\S]*<nav aria-label="Account">[\s\S]*<\/nav>\n<\/div>\n<\/header>/);
    expect(html).toContain('<a href="/account/api-keys" aria-current="page">API keys</a>');
    expect(html).toContain('<a href="/account">Account</a>');
  });
});

describe('create account page', () => {
  it('creates a free organization with the new user as its owner and signs them in', async () => {
    const browser = server.browser();
    const form = await browser.page('/account/signup');
    expect(form.status).toBe(200);
    expect(form.html).toContain('<label for="email">Email</label>');
    expect(form.html).toContain('<label for="password">Password</label>');
    expect(form.html).toContain('<label for="organization">Organization name</label>');
    expect(form.html).toContain('<label for="time-zone">Time zone</label> <select id="time-zone" name="timeZone"');
    expect(form.html).toContain('<option selected>UTC</option>');
    expect(form.html).toContain('<button type="submit">Create account</button>');
    expect(form.headers.get('cache-control')).toBe('no-store');
    expect(form.headers.get('referrer-policy')).toBe('no-referrer');
    expect(form.headers.get('content-security-policy')).toBe(ACCOUNT_CSP);

    const email = newEmail();
    const res = await signUp(browser, { email, organization: 'Harbour <Choir>' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('account_session='));
    expect(cookie).toMatch(/; Max-Age=43200; Path=\/account; HttpOnly; SameSite=Lax$/);

    const overview = await browser.page('/account');
    expect(overview.status).toBe(200);
    expect(overview.html).toContain(`Signed in as ${email}.`);
    expect(overview.html).toContain('Harbour &lt;Choir&gt;');
    expect(overview.html).toContain('Tier: free. Your role: owner.');
    expect(overview.html).toContain(`<tr><td>${email}</td><td>owner</td></tr>`);
    expect(await organization(orgIdIn(overview.html))).toMatchObject({ name: 'Harbour <Choir>', tier: 'free', timeZone: 'UTC' });
  });

  it('makes the organization in the time zone chosen, under the name the runtime lists', async () => {
    const browser = server.browser();
    expect((await signUp(browser, { email: newEmail(), timeZone: 'US/Central' })).status).toBe(303);
    const overview = await browser.page('/account');
    expect(overview.html).toContain('Time zone: America/Chicago.');
    expect(await organization(orgIdIn(overview.html))).toMatchObject({ timeZone: 'America/Chicago' });
  });

  it.each(['+05:00', 'GMT+1', 'EST', 'Mars/Olympus', 'x'.repeat(5000)])(
    'shows the form again for the time zone %j, keeping the rest, and creates nothing',
    async (timeZone) => {
      const email = newEmail();
      const res = await signUp(server.browser(), { email, organization: 'Zoned Choir', timeZone });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('<p role="alert">Choose a time zone from the list, such as America/New_York or UTC.</p>');
      expect(html).toContain('value="Zoned Choir"');
      expect(html).toContain('<option selected>UTC</option>');
      expect((await signIn(server.browser(), email, NEW_PASSWORD)).status).toBe(401);
    },
  );

  it.each([
    ['a malformed email', { email: 'not-an-email' }, 'Enter a valid email address.'],
    [
      'a password under 10 characters',
      { email: 'short@example.test', password: 'nine char' },
      'Choose a password of at least 10 characters.',
    ],
    ['an empty organization name', { email: 'noorg@example.test', organization: '   ' }, 'Enter a name for your organization.'],
  ])('shows the form again with a message for %s', async (_label, fields, message) => {
    const browser = server.browser();
    const res = await signUp(browser, fields);
    expect(res.status).toBe(400);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('account_session='))).toBe(false);
    const html = await res.text();
    expect(html).toContain(`<p role="alert">${message}</p>`);
    expect(html).toContain('<button type="submit">Create account</button>');
  });

  it('lets one IP create 5 accounts an hour: of 12 parallel signups, 5 make an account and the rest answer 429 with Retry-After', async () => {
    const browser = server.browser();
    const form = await browser.page('/account/signup');
    const emails = Array.from({ length: 12 }, () => newEmail());
    const answers = await Promise.all(
      emails.map((email) =>
        browser.submit(form.html, 'Create account', [
          ['email', email],
          ['password', NEW_PASSWORD],
          ['organization', 'Burst Choir'],
        ]),
      ),
    );
    expect(answers.filter((res) => res.status === 303)).toHaveLength(SIGNUP_LIMITS.perIp);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused).toHaveLength(12 - SIGNUP_LIMITS.perIp);
    expect(Number(refused[0]?.headers.get('retry-after'))).toBeGreaterThan(SIGNUP_LIMITS.windowSeconds - 60);
    expect(await refused[0]?.text()).toContain('Too many accounts created from here. Try again in 60 minutes.');
    const created = await server
      .dataSource()
      .query<{ count: number }[]>(`SELECT count(*)::int AS "count" FROM "auth"."users" WHERE "email" = ANY($1)`, [emails]);
    expect(created[0]?.count).toBe(SIGNUP_LIMITS.perIp);
  });

  it('lets one email be tried for signup 3 times an hour, from any IP', async () => {
    const { email } = await server.createUser('Probed Choir');
    for (let i = 0; i < SIGNUP_LIMITS.perEmail; i++) expect((await signUp(server.browser(), { email })).status).toBe(409);
    expect((await signUp(server.browser(), { email })).status).toBe(429);
  });

  it('answers an email that fills the whole body at once, with the form error', async () => {
    const browser = server.browser();
    const form = await browser.page('/account/signup');
    const [{ hidden }] = formsWithButton(form.html, 'Create account');
    const filled: Field[] = [
      ['password', NEW_PASSWORD],
      ['organization', 'Signup Choir'],
    ];
    // Dots between two @ up to the body limit: the old pattern tried every split of them (10 s for 60 KB).
    const room = ONE_MIB - new URLSearchParams([...hidden, ...filled, ['email', 'a@@']]).toString().length;
    const started = Date.now();
    const res = await browser.submit(form.html, 'Create account', [['email', `a@${'.'.repeat(room)}@`], ...filled]);
    const html = await res.text();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(400);
    expect(html).toContain('<p role="alert">Enter a valid email address.</p>');
  });

  it('answers a sign-in with a mebibyte email like any wrong one, echoing no more of it than a field may hold', async () => {
    const res = await signIn(server.browser(), `${'a'.repeat(ONE_MIB - 100)}@example.test`, 'wrong password');
    expect(res.status).toBe(401);
    expect((await res.text()).length).toBeLessThan(FIELD_MAX_LENGTH + 4000);
  });

  it('refuses text that is not valid Unicode, which only a JSON body can carry, and creates nothing', async () => {
    const browser = server.browser();
    const form = await browser.page('/account/signup');
    const email = newEmail();
    const res = await fetch(`${server.url}/account/signup`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': browser.ip,
        cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
      body: `{"csrf": ${JSON.stringify(csrfOf(form.html))}, "email": "${email}", "password": "${NEW_PASSWORD}", "organization": "Acme \\ud800"}`,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Enter a name for your organization.');
    expect((await signIn(server.browser(), email, NEW_PASSWORD)).status).toBe(401);
  });

  it('refuses an email that already has an account, in any case', async () => {
    const { email } = await server.createUser('Taken Choir');
    const res = await signUp(server.browser(), { email: email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('An account with this email already exists.');
  });

  it('returns to the OAuth login page it was started from, where the new account signs in and is asked to verify its email before consent', async () => {
    const browser = server.browser();
    const flow = await startCodeFlow(server, browser);
    const link = /<a href="([^"]+)">Create an account<\/a>/.exec(flow.login.html)?.[1];
    expect(link).toBe(`/account/signup?return=${flow.loginPath}`);

    const form = await browser.page(link ?? '');
    const email = newEmail();
    const res = await browser.submit(form.html, 'Create account', [
      ['email', email],
      ['password', NEW_PASSWORD],
      ['organization', 'Returning Choir'],
    ]);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(flow.loginPath);

    const login = await browser.page(flow.loginPath);
    expect(login.html).toContain('<button type="submit">Sign in</button>');
    const consent = await browser.follow(
      await browser.submit(login.html, 'Sign in', [
        ['email', email],
        ['password', NEW_PASSWORD],
      ]),
    );
    expect(consent.page?.status).toBe(403);
    expect(consent.page?.html).toContain('Verify your email address');
    expect(consent.page?.html).not.toContain('>Approve</button>');
  });

  it.each([
    'https://evil.example/oauth/authorize/abc/interaction',
    '//evil.example/oauth/authorize/abc/interaction',
    '/oauth/authorize/abc/interaction/../../../admin',
    '/account/../oauth/authorize/abc/interaction',
    '/oauth/authorize',
  ])('ignores the return path %s and goes to the account page', async (returnTo) => {
    const browser = server.browser();
    const form = await browser.page(`/account/signup?return=${encodeURIComponent(returnTo)}`);
    expect(form.html).not.toContain('name="return"');
    const res = await browser.submit(form.html, 'Create account', [
      ['email', newEmail()],
      ['password', NEW_PASSWORD],
      ['organization', 'Elsewhere Choir'],
      ['return', returnTo],
    ]);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
  });
});

describe('account sign-in', () => {
  it('signs in with the right password, then out again', async () => {
    const { email } = await server.createUser('Login Choir');
    const browser = server.browser();
    const form = await browser.page('/account/login');
    expect(form.html).toContain('<label for="email">Email</label>');
    expect(form.html).toContain('<label for="password">Password</label>');
    expect(form.html).toContain('<button type="submit">Sign in</button>');
    const res = await signIn(browser, email.toUpperCase());
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
    expect((await browser.page('/account')).html).toContain(`Signed in as ${email}.`);

    const out = await browser.submit((await browser.page('/account')).html, 'Sign out');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/account/login');
    const after = await browser.request('/account');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/account/login');
  });

  it('answers a wrong password and an unknown email with the same 401 page', async () => {
    const { email } = await server.createUser('Login Choir');
    const browser = server.browser();
    for (const [who, password] of [
      [email, 'wrong password'],
      ['nobody@example.test', PASSWORD],
    ] as const) {
      const res = await signIn(browser, who, password);
      expect(res.status).toBe(401);
      expect(await res.text()).toContain('<p role="alert">The email or password is incorrect.</p>');
    }
    expect(browser.cookies.has('account_session')).toBe(false);
  });

  it.each(['/account', '/account/api-keys', '/account/apps'])(
    'sends a visitor who is not signed in from %s to the login page',
    async (path) => {
      const res = await server.browser().request(path);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/account/login');
    },
  );

  it('ends the session on sign-out: a copy of the old cookie no longer works', async () => {
    const { browser } = await signedIn();
    const value = browser.cookies.get('account_session') ?? '';
    const copy = server.browser();
    copy.cookies.set('account_session', value);
    expect((await copy.request('/account')).status).toBe(200);

    await browser.submit((await browser.page('/account')).html, 'Sign out');
    const after = await copy.request('/account');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/account/login');
  });

  it('keeps a session only as the SHA-256 of its cookie, for 12 hours', async () => {
    const { browser, user } = await signedIn();
    const value = browser.cookies.get('account_session') ?? '';
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await server
      .dataSource()
      .query<{ id: string; lifetime: number }[]>(
        `SELECT "id", extract(epoch FROM "expires_at" - "created_at")::int AS "lifetime" FROM "auth"."account_sessions" WHERE "user_id" = $1`,
        [user.id],
      );
    expect(rows).toEqual([{ id: createHash('sha256').update(value).digest('hex'), lifetime: 12 * 3600 }]);
  });

  it('does not accept a session cookie it never issued, or one whose session expired', async () => {
    const { browser, user } = await signedIn();
    const value = browser.cookies.get('account_session') ?? '';
    browser.cookies.set('account_session', `${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`);
    expect((await browser.request('/account')).status).toBe(303);
    browser.cookies.set('account_session', value);
    expect((await browser.request('/account')).status).toBe(200);
    await server
      .dataSource()
      .query(`UPDATE "auth"."account_sessions" SET "expires_at" = now() - interval '1 second' WHERE "user_id" = $1`, [user.id]);
    expect((await browser.request('/account')).status).toBe(303);
  });

  it('refuses form posts without a valid csrf token and changes nothing', async () => {
    const { email } = await server.createUser('Csrf Choir');
    const browser = server.browser();
    await browser.page('/account/login');
    const login = await browser.request('/account/login', [
      ['csrf', 'forged'],
      ['email', email],
      ['password', PASSWORD],
    ]);
    expect(login.status).toBe(400);
    expect(browser.cookies.has('account_session')).toBe(false);

    const signup = await server.browser().request('/account/signup', [
      ['csrf', 'forged'],
      ['email', newEmail()],
      ['password', NEW_PASSWORD],
      ['organization', 'Forged'],
    ]);
    expect(signup.status).toBe(400);

    const owner = await signedIn();
    const created = await owner.browser.submit((await owner.browser.page('/account/api-keys')).html, 'Create key', [
      ['name', 'ci'],
      ['mode', 'test'],
      ['scope', 'signups:read'],
    ]);
    const key = /<code>(sgn_test_[A-Za-z0-9]{32})<\/code>/.exec(await created.text())?.[1] ?? '';
    const [revoke] = formsWithButton((await owner.browser.page('/account/api-keys')).html, 'Revoke');
    const forged = await owner.browser.request(revoke?.action ?? '', [['csrf', csrfOf((await browser.page('/account/login')).html)]]);
    expect(forged.status).toBe(400);
    const bodiless = await owner.browser.request(revoke?.action ?? '', undefined, 'POST');
    expect(bodiless.status).toBe(400);
    await expect(verifyKey(key)).resolves.toMatchObject({ organizationId: owner.orgId });
  });
});

describe("the organization's time zone on the account page", () => {
  it('lets an owner change it with a form: new signups take it, and the overview and GET of the organization show it', async () => {
    const { browser, orgId } = await signedIn();
    const overview = await browser.page('/account');
    expect(overview.html).toContain('Time zone: UTC.');
    expect(overview.html).toContain('<label for="time-zone-0">Time zone</label> <select id="time-zone-0" name="timeZone"');
    const res = await browser.submit(overview.html, 'Save time zone', [['timeZone', 'Pacific/Auckland']]);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
    const after = await browser.page('/account');
    expect(after.html).toContain('Time zone: Pacific/Auckland.');
    expect(after.html).toContain('<option selected>Pacific/Auckland</option>');
    expect(await organization(orgId)).toMatchObject({ timeZone: 'Pacific/Auckland' });
  });

  it('lets an admin change it too, and stores a link name as the listed one', async () => {
    const { browser, orgId } = await signedIn('admin', (await server.createUser('Zoned Admins')).orgId);
    const overview = await browser.page('/account');
    expect((await browser.submit(overview.html, 'Save time zone', [['timeZone', 'US/Eastern']])).status).toBe(303);
    expect(await organization(orgId)).toMatchObject({ timeZone: 'America/New_York' });
  });

  it.each(['+05:00', 'GMT+1', '', '../etc/passwd', 'America/New_Y\u043Erk', 'x'.repeat(2000)])(
    'shows the page again with the reason for the time zone %j, and changes nothing',
    async (timeZone) => {
      const { browser, orgId } = await signedIn();
      const overview = await browser.page('/account');
      const res = await browser.submit(overview.html, 'Save time zone', [['timeZone', timeZone]]);
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain('<p role="alert">Choose a time zone from the list, such as America/New_York or UTC.</p>');
      expect(html).toContain('>Save time zone</button>');
      expect(await organization(orgId)).toMatchObject({ timeZone: 'UTC' });
    },
  );

  it('shows a member the zone without a form, and refuses them changing it', async () => {
    const owner = await signedIn();
    const [form] = formsWithButton((await owner.browser.page('/account')).html, 'Save time zone');
    const member = await signedIn('member', owner.orgId);
    const page = await member.browser.page('/account');
    expect(page.html).toContain('Time zone: UTC.');
    expect(page.html).not.toContain('>Save time zone</button>');
    const refused = await member.browser.request(form?.action ?? '', [
      ['csrf', csrfOf(page.html)],
      ['timeZone', 'Asia/Tokyo'],
    ]);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('Only owners and admins of the organization can change its time zone.');
    expect(await organization(owner.orgId)).toMatchObject({ timeZone: 'UTC' });
  });

  it('refuses a post without the csrf token, and an organization the user is not in, changing nothing', async () => {
    const { browser, orgId } = await signedIn();
    const other = await server.createUser('Other Zone');
    const csrf = csrfOf((await browser.page('/account')).html);
    expect((await browser.request(`/account/time-zone?org=${orgId}`, [['timeZone', 'Asia/Tokyo']])).status).toBe(400);
    const foreign = await browser.request(`/account/time-zone?org=${other.orgId}`, [
      ['csrf', csrf],
      ['timeZone', 'Asia/Tokyo'],
    ]);
    expect(foreign.status).toBe(404);
    expect([(await organization(orgId)).timeZone, (await organization(other.orgId)).timeZone]).toEqual(['UTC', 'UTC']);
  });
});

describe('API keys page', () => {
  it('creates a key, shows it once, and the key works', async () => {
    const { browser, orgId, user } = await signedIn();
    const page = await browser.page('/account/api-keys');
    expect(page.html).toContain('<label for="name">Name</label>');
    expect(page.html).toContain('<label for="mode">Mode</label>');
    expect(page.html.match(/type="checkbox"[^>]*checked/g)).toHaveLength(8);
    expect(page.html).toContain('See your signup sheets, their slots and items');

    const res = await browser.submit(page.html, 'Create key', [
      ['name', 'Website <sync>'],
      ['mode', 'live'],
      ['scope', 'signups:read'],
      ['scope', 'participants:read'],
    ]);
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const key = /<code>(sgn_live_[A-Za-z0-9]{32})<\/code>/.exec(html)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(html).toContain('It will not be shown again.');
    expect(await verifyKey(key)).toMatchObject({
      organizationId: orgId,
      userId: user.id,
      livemode: true,
      scopes: ['signups:read', 'participants:read'],
    });

    const list = await browser.page('/account/api-keys');
    expect(list.html).not.toContain(key);
    expect(list.html).toContain(
      `<td>Website &lt;sync&gt;</td><td><code>${key.slice(0, 12)}</code></td><td>live</td><td>signups:read participants:read</td>`,
    );
  });

  it('revokes a key and announces it on auth.apikey.revoked', async () => {
    const { browser, orgId } = await signedIn('admin', (await server.createUser('Revoking Choir')).orgId);
    const created = await browser.submit((await browser.page('/account/api-keys')).html, 'Create key', [
      ['mode', 'test'],
      ['scope', 'signups:read'],
    ]);
    const key = /<code>(sgn_test_[A-Za-z0-9]{32})<\/code>/.exec(await created.text())?.[1] ?? '';
    const { credentialId } = await verifyKey(key);

    const res = await browser.submit((await browser.page('/account/api-keys')).html, 'Revoke');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/account/api-keys?org=${orgId}`);
    expect((await browser.page(res.headers.get('location') ?? '')).html).not.toContain('>Revoke</button>');
    await expect(verifyKey(key)).rejects.toMatchObject({ code: 'revoked_credentials' });
    await eventually(() =>
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'auth.apikey.revoked',
          data: expect.objectContaining({ apiKeyId: credentialId, organizationId: orgId }),
        }),
      ),
    );
  });

  it('shows a member the keys but refuses them creating or revoking one', async () => {
    const owner = await signedIn();
    await owner.browser.submit((await owner.browser.page('/account/api-keys')).html, 'Create key', [
      ['name', 'owner key'],
      ['mode', 'test'],
      ['scope', 'signups:read'],
    ]);
    const ownerPage = await owner.browser.page('/account/api-keys');
    const [revoke] = formsWithButton(ownerPage.html, 'Revoke');

    const member = await signedIn('member', owner.orgId);
    const page = await member.browser.page('/account/api-keys');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<td>owner key</td>');
    expect(page.html).not.toContain('>Create key</button>');
    expect(page.html).not.toContain('>Revoke</button>');
    const csrf = csrfOf(page.html);

    const create = await member.browser.request(`/account/api-keys?org=${owner.orgId}`, [
      ['csrf', csrf],
      ['mode', 'test'],
      ['scope', 'signups:read'],
    ]);
    expect(create.status).toBe(403);
    expect(await create.text()).toContain('Only owners and admins of the organization can create or revoke API keys.');
    const refused = await member.browser.request(revoke?.action ?? '', [['csrf', csrf]]);
    expect(refused.status).toBe(403);
    expect((await owner.browser.page('/account/api-keys')).html).toContain('>Revoke</button>');
  });

  it('answers 404 for a key of another organization', async () => {
    const victim = await signedIn();
    await victim.browser.submit((await victim.browser.page('/account/api-keys')).html, 'Create key', [
      ['mode', 'test'],
      ['scope', 'signups:read'],
    ]);
    const [revoke] = formsWithButton((await victim.browser.page('/account/api-keys')).html, 'Revoke');

    const intruder = await signedIn();
    const res = await intruder.browser.request(revoke?.action ?? '', [
      ['csrf', csrfOf((await intruder.browser.page('/account/api-keys')).html)],
    ]);
    expect(res.status).toBe(404);
    expect((await victim.browser.page('/account/api-keys')).html).toContain('>Revoke</button>');
  });

  it('offers an organization picker to a member of several and acts on the chosen one', async () => {
    const { browser, user, orgId } = await signedIn();
    const other = await server.admin<OrganizationView>('/admin/organizations', { name: 'Second Choir' });
    await server.running.context.dataSource?.query(
      `INSERT INTO auth.memberships (user_id, organization_id, role) VALUES ($1, $2, 'owner')`,
      [user.id, other.id],
    );

    const first = await browser.page('/account/api-keys');
    expect(first.html).toContain('<label for="org">Organization</label>');
    expect(first.html).toContain(`<option value="${orgId}" selected>`);
    const second = await browser.page(`/account/api-keys?org=${other.id}`);
    expect(second.html).toContain(`<option value="${other.id}" selected>Second Choir</option>`);
    const created = await browser.submit(second.html, 'Create key', [
      ['mode', 'test'],
      ['scope', 'signups:read'],
    ]);
    const key = /<code>(sgn_test_[A-Za-z0-9]{32})<\/code>/.exec(await created.text())?.[1] ?? '';
    expect((await verifyKey(key)).organizationId).toBe(other.id);

    expect((await browser.page('/account/api-keys?org=org_unknown')).status).toBe(404);
    const overview = await browser.page('/account');
    expect(overview.html).toContain('<h2>Second Choir</h2>');
  });
});

describe('connected apps page', () => {
  async function connectApp(browser: PageBrowser, email: string) {
    const flow = await startCodeFlow(server, browser);
    const consent = await browser.follow(
      await browser.submit(flow.login.html, 'Sign in', [
        ['email', email],
        ['password', PASSWORD],
      ]),
    );
    const { callback } = await browser.follow(await browser.submit(consent.page?.html ?? '', 'Approve', [['scope', 'signups:read']]));
    const issued = await server.token({
      grant_type: 'authorization_code',
      client_id: flow.clientId,
      code: callback?.searchParams.get('code') ?? '',
      code_verifier: flow.verifier,
      redirect_uri: REDIRECT_URI,
    });
    expect(issued.status).toBe(200);
    const grantId = jwtPayload(issued.body.access_token as string)[ACCESS_TOKEN_CLAIMS.grant] as string;
    return { clientId: flow.clientId, refreshToken: issued.body.refresh_token as string, grantId };
  }

  it('lists an app connected by a code flow, and revoking it ends its refresh token', async () => {
    const { browser, email, orgId } = await signedIn();
    const app = await connectApp(server.browser(), email);

    const page = await browser.page('/account/apps');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<h2>Connected &lt;App&gt;</h2>');
    expect(page.html).toContain('Organization: Keys Choir.');
    expect(page.html).toContain('<code>signups:read</code>');
    expect(page.html).not.toContain('<code>signups:write</code>');

    const res = await browser.submit(page.html, 'Revoke');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account/apps');
    expect((await browser.page('/account/apps')).html).toContain('No apps are connected to your account.');
    const refreshed = await server.token({ grant_type: 'refresh_token', client_id: app.clientId, refresh_token: app.refreshToken });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
    await eventually(() =>
      expect(events).toContainEqual(
        expect.objectContaining({
          type: 'auth.oauth.grant_revoked',
          data: expect.objectContaining({ grantId: app.grantId, organizationId: orgId }),
        }),
      ),
    );
  });

  it('answers 404 for revoking a grant of another user', async () => {
    const victim = await server.createUser('Victim Choir');
    const app = await connectApp(server.browser(), victim.email);
    const intruder = await signedIn();
    const res = await intruder.browser.request(`/account/apps/${encodeURIComponent(app.grantId)}/revoke`, [
      ['csrf', csrfOf((await intruder.browser.page('/account/apps')).html)],
    ]);
    expect(res.status).toBe(404);
    const refreshed = await server.token({ grant_type: 'refresh_token', client_id: app.clientId, refresh_token: app.refreshToken });
    expect(refreshed.status).toBe(200);
  });
});
