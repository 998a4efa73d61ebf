import {
  approveConsent,
  authorizeUrl,
  bootAuthServer,
  type Browser,
  csrf,
  formAction,
  type FormResult,
  pkce,
  PUBLIC_BASE_URL,
  REDIRECT_URI,
  signIn,
} from '../testing/oauth-flow.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const server = bootAuthServer('auth_oauth_artifacts', 'artifacts-admin-token');

let users = 0;
const newUser = () => server.createUser('Artifacts org', `artifacts${++users}`);

function token(form: Record<string, string>): Promise<FormResult> {
  return server.postForm('/oauth/token', form);
}

function revoke(form: Record<string, string>): Promise<Response> {
  return fetch(`${server.url}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

interface Consenting {
  browser: Browser;
  clientId: string;
  verifier: string;
  consent: string;
}

/** A code flow up to the consent page: a new public client, a new user signed in. */
async function toConsent(): Promise<Consenting> {
  const { email } = await newUser();
  const clientId = await server.registerClient({
    client_name: 'Artifacts app',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
  });
  const browser = server.browser(REDIRECT_URI);
  const { verifier, challenge } = pkce();
  const login = await browser.page(await browser.request(authorizeUrl(clientId, challenge)));
  const consent = await browser.page(await signIn(browser, login.html, email));
  return { browser, clientId, verifier, consent: consent.html };
}

/** Approves every requested scope and reads the one response: the redirect to the client. */
async function approveOnce(flow: Consenting): Promise<{ status: number; callback: URL }> {
  const res = await approveConsent(flow.browser, flow.consent, ['signups:read', 'signups:write']);
  return { status: res.status, callback: new URL(res.headers.get('location') ?? '', server.url) };
}

function exchange(flow: Consenting, code: string): Promise<FormResult> {
  return token({
    grant_type: 'authorization_code',
    client_id: flow.clientId,
    code,
    code_verifier: flow.verifier,
    redirect_uri: REDIRECT_URI,
  });
}

async function codeFlowTokens(): Promise<{ flow: Consenting; code: string; accessToken: string; refreshToken: string }> {
  const flow = await toConsent();
  const code = (await approveOnce(flow)).callback.searchParams.get('code') ?? '';
  const issued = await exchange(flow, code);
  expect(issued.status).toBe(200);
  return { flow, code, accessToken: issued.body.access_token as string, refreshToken: issued.body.refresh_token as string };
}

async function deviceClient(): Promise<string> {
  return server.registerClient({
    client_name: 'Artifacts CLI',
    grant_types: [DEVICE_GRANT, 'refresh_token'],
    response_types: [],
    redirect_uris: [],
  });
}

/** Every row of the OAuth store as text, to search for issued values. */
async function storeText(): Promise<string> {
  const rows = await server.dataSource().query<unknown[]>(`SELECT * FROM "auth"."oauth_store"`);
  return JSON.stringify(rows);
}

/** The whole value and, for a prefixed artifact, the value without its prefix: each must be absent. */
function forms(value: string): string[] {
  return [value, value.replace(/^(?:ac|oat|ort|dc)_/, '')];
}

describe('OAuth artifacts on the wire', () => {
  it('answers Approve with one 302 to redirect_uri carrying an ac_ code and the state, and issues oat_ and ort_ tokens', async () => {
    const flow = await toConsent();
    const { status, callback } = await approveOnce(flow);
    expect(status).toBe(302);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('state')).toBe('st');
    const code = callback.searchParams.get('code') ?? '';
    expect(code).toMatch(/^ac_[0-9A-Za-z]{43}$/);

    const issued = await exchange(flow, code);
    expect(issued.status).toBe(200);
    expect(issued.body.access_token).toMatch(/^oat_eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(issued.body.refresh_token).toMatch(/^ort_[0-9A-Za-z]{43}$/);
    const refreshed = await token({
      grant_type: 'refresh_token',
      client_id: flow.clientId,
      refresh_token: issued.body.refresh_token as string,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).toMatch(/^oat_eyJ/);
    expect(refreshed.body.refresh_token).toMatch(/^ort_/);
  });

  it('answers a sign-in with a 303 on to consent, the post having carried a password', async () => {
    const { email } = await newUser();
    const clientId = await server.registerClient({
      client_name: 'Artifacts app',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code'],
    });
    const browser = server.browser(REDIRECT_URI);
    const login = await browser.page(await browser.request(authorizeUrl(clientId, pkce().challenge)));
    const res = await signIn(browser, login.html, email);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/oauth\/authorize\/[\w-]+\/interaction$/);
  });

  it('answers Deny with one 302 to redirect_uri carrying error=access_denied and the state', async () => {
    const flow = await toConsent();
    const res = await flow.browser.post(formAction(flow.consent, 'Deny'), [['csrf', csrf(flow.consent)]]);
    expect(res.status).toBe(302);
    const callback = new URL(res.headers.get('location') ?? '');
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe('st');
  });

  it('refuses a code without its prefix or behind another one with invalid_grant, and then still takes the real one', async () => {
    const flow = await toConsent();
    const code = (await approveOnce(flow)).callback.searchParams.get('code') ?? '';
    const bare = code.slice('ac_'.length);
    for (const forged of [bare, `ort_${bare}`, `dc_${bare}`, `AC_${bare}`]) {
      const res = await exchange(flow, forged);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    }
    expect((await exchange(flow, code)).status).toBe(200);
  });

  it('refuses a refresh token without its prefix or behind another one with invalid_grant', async () => {
    const { flow, refreshToken } = await codeFlowTokens();
    const bare = refreshToken.slice('ort_'.length);
    for (const forged of [bare, `ac_${bare}`, `oat_${bare}`]) {
      const res = await token({ grant_type: 'refresh_token', client_id: flow.clientId, refresh_token: forged });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    }
    expect((await token({ grant_type: 'refresh_token', client_id: flow.clientId, refresh_token: refreshToken })).status).toBe(200);
  });

  it('issues dc_ device codes and refuses one without its prefix, or the store key of a real one, with invalid_grant', async () => {
    const clientId = await deviceClient();
    const started = await server.postForm('/oauth/device_authorization', {
      client_id: clientId,
      scope: 'signups:read',
      resource: PUBLIC_BASE_URL,
    });
    expect(started.status).toBe(200);
    const deviceCode = started.body.device_code as string;
    expect(deviceCode).toMatch(/^dc_[0-9A-Za-z]{43}$/);
    const pending = await token({ grant_type: DEVICE_GRANT, client_id: clientId, device_code: deviceCode });
    expect(pending.body.error).toBe('authorization_pending');

    const [row] = await server
      .dataSource()
      .query<{ id: string }[]>(`SELECT "id" FROM "auth"."oauth_store" WHERE "model" = 'DeviceCode' ORDER BY "expires_at" DESC LIMIT 1`);
    const bare = deviceCode.slice('dc_'.length);
    for (const forged of [bare, `ac_${bare}`, `ref:${row?.id ?? ''}`, row?.id ?? '']) {
      const res = await token({ grant_type: DEVICE_GRANT, client_id: clientId, device_code: forged });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    }
  });

  it('answers unauthorized_client to device authorization for a client registered without the device grant', async () => {
    const clientId = await server.registerClient({
      client_name: 'Browser app',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
    });
    const res = await server.postForm('/oauth/device_authorization', {
      client_id: clientId,
      scope: 'signups:read',
      resource: PUBLIC_BASE_URL,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });

  it('answers unauthorized_client at the token endpoint for a grant type the client was not registered for', async () => {
    const clientId = await deviceClient();
    const res = await token({
      grant_type: 'authorization_code',
      client_id: clientId,
      code: 'ac_x',
      code_verifier: pkce().verifier,
      redirect_uri: REDIRECT_URI,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unauthorized_client');
  });

  it('revokes the grant of an oat_ access token at /oauth/revoke', async () => {
    const { flow, accessToken, refreshToken } = await codeFlowTokens();
    const res = await revoke({ client_id: flow.clientId, token: accessToken });
    expect(res.status).toBe(200);
    const after = await token({ grant_type: 'refresh_token', client_id: flow.clientId, refresh_token: refreshToken });
    expect(after.body.error).toBe('invalid_grant');
  });
});

describe('OAuth artifacts at rest', () => {
  it('keeps a confidential client secret only as its hash, and still authenticates the client with it', async () => {
    const res = await fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Confidential',
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'signups:read',
      }),
    });
    expect(res.status).toBe(201);
    const { client_id: clientId, client_secret: secret } = (await res.json()) as { client_id: string; client_secret: string };
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(await storeText()).not.toContain(secret);

    expect((await revoke({ client_id: clientId, client_secret: secret, token: 'ort_unknown' })).status).toBe(200);
    const wrong = await revoke({ client_id: clientId, client_secret: `${secret}x`, token: 'ort_unknown' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('keeps none of the values a code flow and a device flow issued, prefixed or not, anywhere in the store', async () => {
    const { flow, code, accessToken, refreshToken } = await codeFlowTokens();
    const sessionCookie = flow.browser.cookie('_session');
    const refreshed = await token({ grant_type: 'refresh_token', client_id: flow.clientId, refresh_token: refreshToken });
    expect(refreshed.status).toBe(200);

    const { email } = await newUser();
    const clientId = await deviceClient();
    const started = await server.postForm('/oauth/device_authorization', {
      client_id: clientId,
      scope: 'signups:read',
      resource: PUBLIC_BASE_URL,
    });
    const deviceCode = started.body.device_code as string;
    const userCode = started.body.user_code as string;
    await token({ grant_type: DEVICE_GRANT, client_id: clientId, device_code: deviceCode });
    const browser = server.browser();
    const entry = await browser.page(await browser.request(started.body.verification_uri_complete as string));
    const login = await browser.submit(entry.html, [
      ['xsrf', /name="xsrf" value="([^"]*)"/.exec(entry.html)?.[1] ?? ''],
      ['confirm', 'yes'],
      ['user_code', userCode],
    ]);
    const consent = await browser.page(await signIn(browser, login.html, email));
    const deviceInteraction = await storeText();
    const done = await browser.page(await approveConsent(browser, consent.html, ['signups:read']));
    expect(done.status).toBe(200);
    const deviceTokens = await token({ grant_type: DEVICE_GRANT, client_id: clientId, device_code: deviceCode });
    expect(deviceTokens.status).toBe(200);

    const issued = [
      code,
      accessToken,
      refreshToken,
      refreshed.body.access_token,
      refreshed.body.refresh_token,
      sessionCookie,
      browser.cookie('_session'),
      deviceCode,
      userCode,
      userCode.replace('-', ''),
      deviceTokens.body.access_token,
      deviceTokens.body.refresh_token,
    ] as string[];
    const stored = `${deviceInteraction}${await storeText()}`;
    expect(stored).toContain('"model":"RefreshToken"');
    for (const value of issued) {
      expect(value.length).toBeGreaterThan(7);
      for (const form of forms(value)) expect(stored).not.toContain(form);
    }
  });
});
