import { randomBytes } from 'node:crypto';
import { DASHBOARD_CALLBACK_PATH, DASHBOARD_CLIENT_ID, type OrganizationView, ROLE_SCOPES, type UserView } from '#libs/contracts';
import { ALL_SCOPES } from '#libs/scopes';
import { OAuthGrants } from '../oauth/oauth-grants.js';
import {
  authorizeUrl,
  bootAuthServer,
  type Browser,
  type FormResult,
  jwtPayload,
  PASSWORD,
  pkce,
  PUBLIC_BASE_URL,
  REDIRECT_URI,
  signIn,
} from '../testing/oauth-flow.js';

const server = bootAuthServer('auth_first_party', 'first-party-admin-token');
const CALLBACK = `${new URL(PUBLIC_BASE_URL).origin}${DASHBOARD_CALLBACK_PATH}`;

interface Person {
  user: UserView;
  org: OrganizationView;
  email: string;
}

async function owner(): Promise<Person> {
  return server.createUser('Dashboard org', 'dash');
}

/** The email of a new member (not an owner or admin) of a new organization. */
async function member(): Promise<string> {
  const org = await server.admin<OrganizationView>('/admin/organizations', { name: 'Member org' });
  const email = `dash-member-${randomBytes(4).toString('hex')}@example.test`;
  await server.admin('/admin/users', { email, password: PASSWORD, organizationId: org.id, role: 'member' });
  return email;
}

/** A second organization the person is an admin of, joined after the first (their oldest). */
async function joinAnother(person: Person, name = 'Second org'): Promise<OrganizationView> {
  const other = await server.admin<OrganizationView>('/admin/organizations', { name });
  await server
    .dataSource()
    .query(
      `INSERT INTO auth.memberships (user_id, organization_id, role, created_at) VALUES ($1, $2, 'admin', now() + interval '1 second')`,
      [person.user.id, other.id],
    );
  return other;
}

interface Authorization {
  verifier: string;
  state: string;
  res: Response;
}

/** The dashboard's authorization request, asking for every scope as the dashboard does. */
async function authorize(browser: Browser, extra: Record<string, string> = {}): Promise<Authorization> {
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const url = authorizeUrl(DASHBOARD_CLIENT_ID, challenge, { redirect_uri: CALLBACK, scope: ALL_SCOPES.join(' '), state, ...extra });
  return { verifier, state, res: await browser.request(url) };
}

/** Follows the answer to the dashboard's callback and returns its code. */
async function codeFrom(browser: Browser, res: Response, state?: string): Promise<string> {
  const { callback, page } = await browser.follow(res);
  if (!callback) throw new Error(`expected the redirect to the dashboard, got ${JSON.stringify(page)}`);
  if (state !== undefined) expect(callback.searchParams.get('state')).toBe(state);
  return callback.searchParams.get('code') ?? '';
}

/** Signs in from the login page the authorization request led to, and returns the code it ends with. */
async function signInForCode(
  browser: Browser,
  email: string,
  extra: Record<string, string> = {},
): Promise<{ code: string; verifier: string }> {
  const started = await authorize(browser, extra);
  const login = await browser.page(started.res);
  expect(login.html).toContain('<button type="submit">Sign in</button>');
  return { code: await codeFrom(browser, await signIn(browser, login.html, email), started.state), verifier: started.verifier };
}

function exchange(code: string, verifier: string): Promise<FormResult> {
  return server.postForm('/oauth/token', {
    grant_type: 'authorization_code',
    client_id: DASHBOARD_CLIENT_ID,
    code,
    code_verifier: verifier,
    redirect_uri: CALLBACK,
  });
}

function scopesOf(tokens: FormResult): string[] {
  return String(jwtPayload(tokens.body.access_token as string).scope)
    .split(' ')
    .sort();
}

describe('the dashboard, a first-party client', () => {
  it("skips the consent page after sign-in and grants every requested scope the owner's role allows", async () => {
    const { user, org, email } = await owner();
    const browser = server.browser(CALLBACK);
    const { code, verifier } = await signInForCode(browser, email);
    const tokens = await exchange(code, verifier);
    expect(tokens.status).toBe(200);
    expect(scopesOf(tokens)).toEqual([...ALL_SCOPES].sort());
    expect(jwtPayload(tokens.body.access_token as string)).toMatchObject({
      aud: PUBLIC_BASE_URL,
      sub: user.id,
      org_id: org.id,
      client_id: DASHBOARD_CLIENT_ID,
    });
  });

  it("grants a member only a member's ceiling", async () => {
    const email = await member();
    const { code, verifier } = await signInForCode(server.browser(CALLBACK), email);
    const tokens = await exchange(code, verifier);
    expect(String(tokens.body.scope).split(' ').sort()).toEqual([...ROLE_SCOPES.member].sort());
    expect(scopesOf(tokens)).toEqual([...ROLE_SCOPES.member].sort());
  });

  it("answers access_denied to the callback when the member's role allows none of the requested scopes", async () => {
    const email = await member();
    const browser = server.browser(CALLBACK);
    const started = await authorize(browser, { scope: 'signups:write' });
    const login = await browser.page(started.res);
    const { callback } = await browser.follow(await signIn(browser, login.html, email));
    expect(callback?.searchParams.get('error')).toBe('access_denied');
    expect(callback?.searchParams.get('state')).toBe(started.state);
    expect(callback?.searchParams.has('code')).toBe(false);
  });

  it('acts for the organization the request names, one of the user’s', async () => {
    const person = await owner();
    const other = await joinAnother(person);
    const { code, verifier } = await signInForCode(server.browser(CALLBACK), person.email, { organization: other.id });
    expect(jwtPayload((await exchange(code, verifier)).body.access_token as string).org_id).toBe(other.id);
  });

  it('falls back to the oldest membership for an organization that is not one of the user’s', async () => {
    const person = await owner();
    await joinAnother(person);
    const stranger = await server.admin<OrganizationView>('/admin/organizations', { name: 'Not theirs' });
    const { code, verifier } = await signInForCode(server.browser(CALLBACK), person.email, { organization: stranger.id });
    expect(jwtPayload((await exchange(code, verifier)).body.access_token as string).org_id).toBe(person.org.id);
  });

  it('asks for the password on every authorization, even while the browser session lasts and without prompt=login', async () => {
    const { email } = await owner();
    const browser = server.browser(CALLBACK);
    await signInForCode(browser, email);
    for (const extra of [{}, { prompt: 'login' }] as Record<string, string>[]) {
      const again = await authorize(browser, extra);
      const { page, callback } = await browser.follow(again.res);
      expect(callback).toBeUndefined();
      expect(page?.html).toContain('<button type="submit">Sign in</button>');
    }
    const silent = await authorize(browser, { prompt: 'none' });
    const { page, callback } = await browser.follow(silent.res);
    expect(callback?.searchParams.has('code') ?? false).toBe(false);
    expect(page?.html ?? callback?.searchParams.get('error')).toContain('interaction_required');
  });

  it('switches organizations with a new grant (the password asked again), leaving the earlier grant on its organization', async () => {
    const person = await owner();
    const other = await joinAnother(person);
    const browser = server.browser(CALLBACK);
    const first = await signInForCode(browser, person.email);
    const firstTokens = await exchange(first.code, first.verifier);
    const firstClaims = jwtPayload(firstTokens.body.access_token as string);
    expect(firstClaims.org_id).toBe(person.org.id);

    const switched = await signInForCode(browser, person.email, { organization: other.id });
    const secondClaims = jwtPayload((await exchange(switched.code, switched.verifier)).body.access_token as string);
    expect(secondClaims.org_id).toBe(other.id);
    expect(secondClaims.grant_id).not.toBe(firstClaims.grant_id);

    const back = await signInForCode(browser, person.email, { organization: person.org.id });
    const backClaims = jwtPayload((await exchange(back.code, back.verifier)).body.access_token as string);
    expect(backClaims.org_id).toBe(person.org.id);

    const refreshed = await server.postForm('/oauth/token', {
      grant_type: 'refresh_token',
      client_id: DASHBOARD_CLIENT_ID,
      refresh_token: firstTokens.body.refresh_token as string,
    });
    expect(jwtPayload(refreshed.body.access_token as string)).toMatchObject({ org_id: person.org.id, grant_id: firstClaims.grant_id });
  });

  it('shows the page asking to verify the email address to a user who has not, and grants nothing', async () => {
    const { user, email } = await owner();
    await server.dataSource().query(`UPDATE auth.users SET email_verified_at = NULL WHERE id = $1`, [user.id]);
    const browser = server.browser(CALLBACK);
    const started = await authorize(browser);
    const login = await browser.page(started.res);
    const { page, callback } = await browser.follow(await signIn(browser, login.html, email));
    expect(callback).toBeUndefined();
    expect(page?.status).toBe(403);
    expect(page?.html).toContain('Before you give Dashboard access, verify your email address');
  });

  it('refuses another redirect_uri on a page of ours, even one a registered client claimed with the id dashboard', async () => {
    const registered = await server.registerClient({
      client_id: DASHBOARD_CLIENT_ID,
      client_name: 'Impostor',
      redirect_uris: [REDIRECT_URI],
    });
    expect(registered).toMatch(/^cli_/);
    const { challenge } = pkce();
    const res = await server.browser(CALLBACK).request(authorizeUrl(DASHBOARD_CLIENT_ID, challenge, { redirect_uri: REDIRECT_URI }));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('The application&#39;s request is not valid (invalid_redirect_uri)');
  });

  it('refreshes its tokens, rotating the refresh token', async () => {
    const { email } = await owner();
    const { code, verifier } = await signInForCode(server.browser(CALLBACK), email);
    const issued = await exchange(code, verifier);
    const refresh = (token: unknown) =>
      server.postForm('/oauth/token', { grant_type: 'refresh_token', client_id: DASHBOARD_CLIENT_ID, refresh_token: token as string });
    const refreshed = await refresh(issued.body.refresh_token);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    expect(scopesOf(refreshed)).toEqual([...ALL_SCOPES].sort());
    expect((await refresh(issued.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('is listed as Dashboard among the connected apps', async () => {
    const { user, email } = await owner();
    await signInForCode(server.browser(CALLBACK), email);
    const apps = await server.running.app.get(OAuthGrants).connectedApps(user.id);
    expect(apps.map((app) => [app.clientId, app.clientName])).toEqual([[DASHBOARD_CLIENT_ID, 'Dashboard']]);
  });

  it('still shows a third-party client the consent page, whatever organization it names', async () => {
    const person = await owner();
    const other = await joinAnother(person);
    const clientId = await server.registerClient({ client_name: 'Third party', redirect_uris: [REDIRECT_URI] });
    const browser = server.browser(REDIRECT_URI);
    const login = await browser.page(await browser.request(authorizeUrl(clientId, pkce().challenge, { organization: other.id })));
    const consent = await browser.page(await signIn(browser, login.html, person.email));
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('>Approve</button>');
    expect(consent.html).toContain('<label for="organization">Organization</label>');
  });
});
