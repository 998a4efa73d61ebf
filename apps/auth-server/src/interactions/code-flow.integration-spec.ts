import { randomBytes } from 'node:crypto';
import type { OrganizationView } from '#libs/contracts';
import { SCOPES } from '#libs/scopes';
import {
  approveConsent,
  authorizeUrl,
  bootAuthServer,
  type Browser,
  csrf,
  formAction,
  type FormResult,
  jwtPayload,
  type Page,
  PASSWORD,
  pkce,
  PUBLIC_BASE_URL,
  REDIRECT_URI,
  signIn as postLogin,
} from '../testing/oauth-flow.js';

const server = bootAuthServer('auth_code_flow', 'flow-admin-token');

let emails = 0;
function createUser(orgName = 'Flow org'): ReturnType<typeof server.createUser> {
  return server.createUser(orgName, `flow${++emails}`);
}

function publicClient(): Promise<string> {
  return server.registerClient({
    client_name: 'Flow <App>',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
  });
}

function token(form: Record<string, string>): Promise<FormResult> {
  return server.postForm('/oauth/token', form);
}

interface Started {
  browser: Browser;
  clientId: string;
  verifier: string;
  state: string;
  login: { url: string; html: string };
}

async function startFlow(extra: Record<string, string> = {}): Promise<Started> {
  const browser = server.browser(REDIRECT_URI);
  const clientId = await publicClient();
  const { verifier, challenge } = pkce();
  const state = randomBytes(8).toString('hex');
  const { page } = await browser.follow(await browser.request(authorizeUrl(clientId, challenge, { state, ...extra })));
  expect(page?.status).toBe(200);
  return { browser, clientId, verifier, state, login: { url: page?.url ?? '', html: page?.html ?? '' } };
}

async function signIn(started: Started, email: string, password = PASSWORD): Promise<Page> {
  return started.browser.page(await postLogin(started.browser, started.login.html, email, password));
}

async function approve(started: Started, consentHtml: string, scopes: string[], organization?: string): Promise<URL> {
  const { callback, page } = await started.browser.follow(await approveConsent(started.browser, consentHtml, scopes, organization));
  if (!callback) throw new Error(`expected the redirect to the client, got ${JSON.stringify(page)}`);
  return callback;
}

function exchange(started: Started, code: string, verifier = started.verifier): Promise<FormResult> {
  return token({
    grant_type: 'authorization_code',
    client_id: started.clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
  });
}

describe('authorization code flow with PKCE', () => {
  it('signs in, narrows the grant at consent, issues a JWT for the REST API and rotates refresh tokens', async () => {
    const { user, org, email } = await createUser();
    const started = await startFlow();
    expect(started.login.html).toContain('<label for="email">Email</label>');
    expect(started.login.html).toContain('<label for="password">Password</label>');
    expect(started.login.html).toContain('<button type="submit">Sign in</button>');
    expect(started.login.html).toContain('Flow &lt;App&gt;');

    const consent = await signIn(started, email.toUpperCase());
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('Flow &lt;App&gt;');
    expect(consent.html).toContain(SCOPES['signups:read']);
    expect(consent.html).toContain(SCOPES['signups:write']);
    expect(consent.html.match(/type="checkbox"[^>]*checked/g)).toHaveLength(2);
    expect(consent.html).toContain('>Approve</button>');
    expect(consent.html).toContain('>Deny</button>');
    expect(consent.html).not.toContain('<select');

    const callback = await approve(started, consent.html, ['signups:read']);
    expect(callback.searchParams.get('state')).toBe(started.state);
    const code = callback.searchParams.get('code') ?? '';
    expect(code).not.toBe('');

    const issued = await exchange(started, code);
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('signups:read');
    expect(issued.body.expires_in).toBe(3600);
    expect(typeof issued.body.refresh_token).toBe('string');
    const claims = jwtPayload(issued.body.access_token as string);
    expect(claims).toMatchObject({
      aud: PUBLIC_BASE_URL,
      sub: user.id,
      org_id: org.id,
      scope: 'signups:read',
      client_id: started.clientId,
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(3600);

    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: started.clientId,
      refresh_token: issued.body.refresh_token as string,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    expect(jwtPayload(refreshed.body.access_token as string)).toMatchObject({
      aud: PUBLIC_BASE_URL,
      sub: user.id,
      org_id: org.id,
      scope: 'signups:read',
    });

    const reused = await token({
      grant_type: 'refresh_token',
      client_id: started.clientId,
      refresh_token: issued.body.refresh_token as string,
    });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
    const afterRevoke = await token({
      grant_type: 'refresh_token',
      client_id: started.clientId,
      refresh_token: refreshed.body.refresh_token as string,
    });
    expect(afterRevoke.status).toBe(400);
    expect(afterRevoke.body.error).toBe('invalid_grant');
  });

  it('redirects with access_denied and the state when the user denies', async () => {
    const { email } = await createUser();
    const started = await startFlow();
    const consent = await signIn(started, email);
    const { callback } = await started.browser.follow(
      await started.browser.post(formAction(consent.html, 'Deny'), [['csrf', csrf(consent.html)]]),
    );
    expect(callback?.searchParams.get('error')).toBe('access_denied');
    expect(callback?.searchParams.get('state')).toBe(started.state);
    expect(callback?.searchParams.has('code')).toBe(false);
  });

  it('shows the login page again with an error for a wrong password, naming neither field', async () => {
    const { email } = await createUser();
    const started = await startFlow();
    const again = await signIn(started, email, 'wrong password');
    expect(again.status).toBe(401);
    expect(again.html).toContain('The email or password is incorrect.');
    expect(again.html).toContain('<button type="submit">Sign in</button>');
    const unknown = await signIn(started, 'nobody@example.test');
    expect(unknown.html).toContain('The email or password is incorrect.');
  });

  it('refuses a form post without the interaction csrf token', async () => {
    const { email } = await createUser();
    const started = await startFlow();
    const res = await started.browser.post(formAction(started.login.html), [
      ['csrf', 'forged'],
      ['email', email],
      ['password', PASSWORD],
    ]);
    expect(res.status).toBe(400);
  });

  it('refuses a form post with no body at all, even to Deny', async () => {
    const { email } = await createUser();
    const started = await startFlow();
    const consent = await signIn(started, email);
    const deny = await started.browser.request(formAction(consent.html, 'Deny'), { method: 'POST' });
    expect(deny.status).toBe(400);
    expect(deny.headers.get('location')).toBeNull();
  });

  it('answers invalid_grant for a code used twice and for a wrong verifier', async () => {
    const { email } = await createUser();
    const first = await startFlow();
    const consent = await signIn(first, email);
    const code = (await approve(first, consent.html, ['signups:read', 'signups:write'])).searchParams.get('code') ?? '';
    const issued = await exchange(first, code);
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('signups:read signups:write');
    const twice = await exchange(first, code);
    expect(twice.status).toBe(400);
    expect(twice.body.error).toBe('invalid_grant');

    const second = await startFlow();
    const consent2 = await signIn(second, email);
    const code2 = (await approve(second, consent2.html, ['signups:read'])).searchParams.get('code') ?? '';
    const wrong = await exchange(second, code2, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
  });

  /** An error of the authorization request itself: a page of ours, never a redirect to the client's claimed redirect_uri. */
  async function refusedOnAPage(url: string, error: string): Promise<void> {
    const res = await server.browser(REDIRECT_URI).request(url);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(await res.text()).toContain(`The application&#39;s request is not valid (${error})`);
  }

  it('refuses the plain code_challenge_method on a page', async () => {
    await refusedOnAPage(
      authorizeUrl(await publicClient(), 'a'.repeat(43), { scope: 'signups:read', code_challenge_method: 'plain' }),
      'invalid_request',
    );
  });

  it('refuses a resource other than the REST API or MCP on a page', async () => {
    await refusedOnAPage(
      authorizeUrl(await publicClient(), pkce().challenge, { scope: 'signups:read', resource: 'https://elsewhere.example.test/' }),
      'invalid_target',
    );
  });

  it.each(['fragment', 'form_post'])(
    'refuses response_mode=%s on a page: an error in it would reach the redirect_uri unseen',
    async (mode) => {
      await refusedOnAPage(
        authorizeUrl(await publicClient(), 'a'.repeat(43), { scope: 'signups:read', code_challenge_method: 'plain', response_mode: mode }),
        'invalid_request',
      );
    },
  );

  it('refuses a scope the client was not registered for on a page, so no registered redirect_uri serves as an open redirect', async () => {
    await refusedOnAPage(authorizeUrl(await publicClient(), pkce().challenge, { scope: 'signups:read analytics:read' }), 'invalid_scope');
  });

  it('keeps an earlier grant on its organization when the user consents again for another one', async () => {
    const { user, org, email } = await createUser('Grant org');
    const other = await server.admin<OrganizationView>('/admin/organizations', { name: 'Other org' });
    await server
      .dataSource()
      .query(`INSERT INTO auth.memberships (user_id, organization_id, role) VALUES ($1, $2, 'admin')`, [user.id, other.id]);
    const first = await startFlow({ scope: 'signups:read' });
    const firstConsent = await signIn(first, email);
    const firstTokens = await exchange(
      first,
      (await approve(first, firstConsent.html, ['signups:read'], org.id)).searchParams.get('code') ?? '',
    );

    const { verifier, challenge } = pkce();
    const again = await first.browser.page(await first.browser.request(authorizeUrl(first.clientId, challenge)));
    expect(again.html).toContain('>Approve</button>');
    const secondCode = (await approve(first, again.html, ['signups:read', 'signups:write'], other.id)).searchParams.get('code') ?? '';
    const second = await exchange(first, secondCode, verifier);
    const secondClaims = jwtPayload(second.body.access_token as string);
    expect(secondClaims.org_id).toBe(other.id);
    expect(String(secondClaims.scope).split(' ').sort()).toEqual(['signups:read', 'signups:write']);

    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: first.clientId,
      refresh_token: firstTokens.body.refresh_token as string,
    });
    const refreshedClaims = jwtPayload(refreshed.body.access_token as string);
    expect(refreshedClaims).toMatchObject({ org_id: org.id, scope: 'signups:read' });
    expect(refreshedClaims.grant_id).not.toBe(secondClaims.grant_id);
  });

  it('offers an organization picker to a member of two organizations and puts the chosen one in the token', async () => {
    const { user, email } = await createUser('First org');
    const other = await server.admin<OrganizationView>('/admin/organizations', { name: 'Second <org>' });
    const dataSource = server.dataSource();
    await dataSource.query(`INSERT INTO auth.memberships (user_id, organization_id, role) VALUES ($1, $2, 'member')`, [user.id, other.id]);

    const started = await startFlow();
    const consent = await signIn(started, email);
    expect(consent.html).toContain('<label for="organization">Organization</label>');
    expect(consent.html).toContain(`<option value="${other.id}">Second &lt;org&gt;</option>`);
    expect(consent.html).toContain('Permissions your role in the chosen organization does not allow are left out.');
    const code = (await approve(started, consent.html, ['signups:read', 'signups:write'], other.id)).searchParams.get('code') ?? '';
    const issued = await exchange(started, code);
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('signups:read');
    expect(jwtPayload(issued.body.access_token as string)).toMatchObject({ sub: user.id, org_id: other.id, scope: 'signups:read' });
  });

  it("offers a member only the scopes of a member's role, and grants no other even when the form names it", async () => {
    const org = await server.admin<OrganizationView>('/admin/organizations', { name: 'Member org' });
    const email = `member${++emails}@example.test`;
    await server.admin('/admin/users', { email, password: PASSWORD, organizationId: org.id, role: 'member' });
    const started = await startFlow();
    const consent = await signIn(started, email);
    expect(consent.html.match(/type="checkbox"/g)).toHaveLength(1);
    expect(consent.html).toContain(SCOPES['signups:read']);
    expect(consent.html).not.toContain('value="signups:write"');
    expect(consent.html).toContain('Your role does not allow <code>signups:write</code>: the app will not get it.');

    const code = (await approve(started, consent.html, ['signups:read', 'signups:write'])).searchParams.get('code') ?? '';
    const issued = await exchange(started, code);
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('signups:read');
  });
});
