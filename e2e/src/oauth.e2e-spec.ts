import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { NatsBus } from '#libs/bus';
import { type MeView, oauthIssuer } from '#libs/contracts';
import { OAuthTokenVerifier } from '#libs/edge';
import { createLogger } from '#libs/observability';
import { accessibilityViolations, eventually, launchChromium } from '#libs/testing';
import { call, newTenant, signupBody, type Tenant } from './support/api.js';
import {
  authorizeInBrowser,
  type CallbackServer,
  connectApp,
  consent,
  DEVICE_GRANT,
  discoverWithSecret,
  oauthError,
  oauthForm,
  registerDeviceClient,
  registerPublicClient,
  signIn,
  startCallbackServer,
  withPage,
} from './support/oauth.js';
import { stackInfo } from './support/stack-env.js';

const READ_WRITE = 'signups:read signups:write';

/** A third-party app (openid-client) against the running stack, its user in a real browser. */
describe('OAuth 2.1 for third-party apps', () => {
  let browser: Browser;
  let callback: CallbackServer;
  let tenant: Tenant;

  const baseUrl = () => stackInfo().baseUrl;
  const redirectUri = () => callback.redirectUri;
  const me = (token: string) => call<MeView>('/me', { key: token });
  const restApp = (config: client.Configuration, scope = READ_WRITE, uncheck: string[] = []) =>
    connectApp(browser, config, { redirectUri: redirectUri(), email: tenant.user.email, scope, resource: baseUrl(), uncheck });

  beforeAll(async () => {
    browser = await launchChromium();
    callback = await startCallbackServer();
  });

  beforeEach(async () => {
    tenant = await newTenant('pro');
  });

  afterAll(async () => {
    await browser?.close();
    await callback?.close();
  });

  describe('discovery and registration', () => {
    it('discovers the authorization server from RFC 8414 metadata at {auth_url}', async () => {
      const config = await registerPublicClient(redirectUri());
      const authUrl = stackInfo().authUrl;
      expect(config.serverMetadata()).toMatchObject({
        issuer: authUrl,
        authorization_endpoint: `${authUrl}/oauth/authorize`,
        token_endpoint: `${authUrl}/oauth/token`,
        registration_endpoint: `${authUrl}/oauth/register`,
        device_authorization_endpoint: `${authUrl}/oauth/device_authorization`,
        revocation_endpoint: `${authUrl}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
      });
    });

    it('registers a public client by DCR with a cli_ id and no secret', async () => {
      const config = await registerPublicClient(redirectUri());
      expect(config.clientMetadata()).toMatchObject({
        client_id: expect.stringMatching(/^cli_/),
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: [redirectUri()],
      });
      expect(config.clientMetadata().client_secret).toBeUndefined();
    });

    it('registers a confidential client that gets a client_secret and must present it at the token endpoint, whose token cannot manage webhooks nor read the event log', async () => {
      const config = await registerPublicClient(redirectUri(), { token_endpoint_auth_method: 'client_secret_post' });
      const { client_id: clientId, client_secret: secret } = config.clientMetadata();
      expect(clientId).toMatch(/^cli_/);
      expect(typeof secret).toBe('string');
      expect((secret as string).length).toBeGreaterThanOrEqual(32);

      const {
        callback: url,
        verifier,
        state,
      } = await authorizeInBrowser(browser, config, {
        redirectUri: redirectUri(),
        email: tenant.user.email,
        scope: 'signups:read',
        resource: baseUrl(),
      });
      const checks = { pkceCodeVerifier: verifier, expectedState: state };
      const forged = await discoverWithSecret(clientId, 'not-the-secret');
      await expect(oauthError(client.authorizationCodeGrant(forged, url, checks, { resource: baseUrl() }))).resolves.toMatchObject({
        status: 401,
        error: 'invalid_client',
      });

      const tokens = await client.authorizationCodeGrant(config, url, checks, { resource: baseUrl() });
      expect(tokens.scope).toBe('signups:read');
      expect((await me(tokens.access_token)).body.credential).toEqual({ type: 'oauth', mode: 'live', clientId });
      const webhooks = await call<{ code: string }>('/webhooks', { key: tokens.access_token });
      expect(webhooks.status).toBe(403);
      expect(webhooks.body.code).toBe('forbidden');
      const events = await call<{ code: string }>('/events', { key: tokens.access_token });
      expect(events.status).toBe(403);
      expect(events.body.code).toBe('forbidden');
    });
  });

  describe('authorization code with PKCE in the browser', () => {
    it('signs in, approves, exchanges the code with the verifier, and GET /me names the app, organization and scopes', async () => {
      const config = await registerPublicClient(redirectUri());
      const {
        callback: url,
        verifier,
        state,
      } = await authorizeInBrowser(browser, config, {
        redirectUri: redirectUri(),
        email: tenant.user.email,
        scope: READ_WRITE,
        resource: baseUrl(),
      });
      expect(url.searchParams.get('state')).toBe(state);
      expect(url.searchParams.get('code')).toEqual(expect.any(String));

      const tokens = await client.authorizationCodeGrant(
        config,
        url,
        { pkceCodeVerifier: verifier, expectedState: state },
        { resource: baseUrl() },
      );
      expect(tokens.token_type.toLowerCase()).toBe('bearer');
      expect(tokens.expires_in).toBe(3600);
      expect(tokens.scope).toBe(READ_WRITE);
      expect(tokens.refresh_token).toEqual(expect.any(String));

      const res = await me(tokens.access_token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: tenant.user.id,
        email: tenant.user.email,
        organization: {
          id: tenant.organization.id,
          name: tenant.organization.name,
          slug: tenant.organization.slug,
          tier: 'pro',
          timeZone: 'UTC',
        },
        scopes: ['signups:read', 'signups:write'],
        credential: { type: 'oauth', mode: 'live', clientId: config.clientMetadata().client_id },
        role: 'owner',
      });
    });

    it('sends the browser back with error=access_denied and the state when the user denies', async () => {
      const config = await registerPublicClient(redirectUri());
      const { callback: url, state } = await authorizeInBrowser(browser, config, {
        redirectUri: redirectUri(),
        email: tenant.user.email,
        scope: READ_WRITE,
        resource: baseUrl(),
        decision: 'Deny',
      });
      expect(url.searchParams.get('error')).toBe('access_denied');
      expect(url.searchParams.get('state')).toBe(state);
      expect(url.searchParams.has('code')).toBe(false);
    });

    it('narrows the grant to the scopes left checked at consent, and the API refuses the missing one with 403 scope_required', async () => {
      const config = await registerPublicClient(redirectUri());
      const tokens = await restApp(config, READ_WRITE, ['signups:write']);
      expect(tokens.scope).toBe('signups:read');
      expect((await me(tokens.access_token)).body.scopes).toEqual(['signups:read']);

      const write = await call('/signups', { key: tokens.access_token, body: signupBody() });
      expect(write.status).toBe(403);
      expect(write.headers.get('content-type')).toContain('application/problem+json');
      expect(write.body).toMatchObject({ code: 'scope_required', detail: expect.stringContaining('signups:write') });
      expect(write.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="signups:write"');
      expect((await call('/signups', { key: tokens.access_token })).status).toBe(200);
    });
  });

  describe('refresh and revocation', () => {
    it('rotates the refresh token on every use, and the new access token works', async () => {
      const config = await registerPublicClient(redirectUri());
      const first = await restApp(config);
      const second = await client.refreshTokenGrant(config, first.refresh_token!);
      expect(second.refresh_token).toEqual(expect.any(String));
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(second.access_token).not.toBe(first.access_token);
      expect(second.scope).toBe(READ_WRITE);
      expect((await me(second.access_token)).status).toBe(200);
    });

    it('treats reuse of a rotated refresh token as theft: invalid_grant, and every token of the grant is revoked', async () => {
      const config = await registerPublicClient(redirectUri());
      const first = await restApp(config);
      const second = await client.refreshTokenGrant(config, first.refresh_token!);

      await expect(oauthError(client.refreshTokenGrant(config, first.refresh_token!))).resolves.toMatchObject({
        status: 400,
        error: 'invalid_grant',
      });
      await eventually(async () => {
        for (const token of [first.access_token, second.access_token]) {
          const res = await me(token);
          expect(res.status).toBe(401);
          expect(res.body).toMatchObject({ code: 'revoked_credentials' });
        }
      });
      await expect(oauthError(client.refreshTokenGrant(config, second.refresh_token!))).resolves.toMatchObject({
        status: 400,
        error: 'invalid_grant',
      });
    });

    it('revokes the grant of an access token sent to /oauth/revoke (RFC 7009)', async () => {
      const config = await registerPublicClient(redirectUri());
      const tokens = await restApp(config);
      expect((await me(tokens.access_token)).status).toBe(200);

      await client.tokenRevocation(config, tokens.access_token);
      await eventually(async () => {
        const res = await me(tokens.access_token);
        expect(res.status).toBe(401);
        expect(res.body).toMatchObject({ code: 'revoked_credentials' });
      });
      await expect(oauthError(client.refreshTokenGrant(config, tokens.refresh_token!))).resolves.toMatchObject({ error: 'invalid_grant' });
    });
  });

  describe('device flow (RFC 8628)', () => {
    it('shows the code page prefilled, signs in and approves in the browser, and the polling device gets a token for the API', async () => {
      const config = await registerDeviceClient();
      const device = await client.initiateDeviceAuthorization(config, { scope: READ_WRITE, resource: baseUrl() });
      expect(device.verification_uri).toBe(`${stackInfo().authUrl}/oauth/device`);
      expect(device.verification_uri_complete).toBe(`${device.verification_uri}?user_code=${encodeURIComponent(device.user_code)}`);
      expect(device.expires_in).toBe(600);
      expect(device.interval).toBe(5);

      // Each page on the way passes axe-core (WCAG 2.1 A and AA, best practices).
      const found: Record<string, string[]> = {};
      await withPage(browser, async (page) => {
        await page.goto(device.verification_uri_complete!);
        await expect(page.getByLabel('Code', { exact: true }).inputValue()).resolves.toBe(device.user_code);
        found.code = await accessibilityViolations(page);
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        found.signIn = await accessibilityViolations(page);
        await signIn(page, tenant.user.email);
        await page.getByRole('button', { name: 'Approve' }).waitFor();
        found.consent = await accessibilityViolations(page);
        await consent(page, 'Approve');
        await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('You can go back to your device');
        found.done = await accessibilityViolations(page);
      });
      expect(found).toEqual({ code: [], signIn: [], consent: [], done: [] });

      const tokens = await client.pollDeviceAuthorizationGrant(config, device);
      expect(tokens.scope).toBe(READ_WRITE);
      expect(tokens.refresh_token).toEqual(expect.any(String));
      const res = await me(tokens.access_token);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: tenant.user.id,
        organization: { id: tenant.organization.id },
        credential: { type: 'oauth', clientId: config.clientMetadata().client_id },
      });
    });
  });

  it('explains an authorization request from an unknown client on a page of its own, which passes axe-core', async () => {
    await withPage(browser, async (page) => {
      const query = new URLSearchParams({
        client_id: 'no-such-client',
        response_type: 'code',
        redirect_uri: 'http://127.0.0.1:9/callback',
      });
      const res = await page.goto(`${stackInfo().authUrl}/oauth/authorize?${query}`);
      expect(res?.status()).toBe(400);
      expect(await res?.headerValue('content-type')).toContain('text/html');
      expect(await accessibilityViolations(page)).toEqual([]);
    });
  });

  describe('audience binding (RFC 8707)', () => {
    let bus: NatsBus;

    beforeAll(async () => {
      const { natsUrl, natsPrefix, streamName } = stackInfo();
      bus = await NatsBus.connect({
        url: natsUrl,
        prefix: natsPrefix,
        streamName,
        name: 'e2e-oauth',
        logger: createLogger('e2e-oauth', 'warn'),
        defaultTimeoutMs: 5000,
      });
    });

    afterAll(async () => {
      await bus?.close();
    });

    const mcpApp = (config: client.Configuration) =>
      connectApp(browser, config, {
        redirectUri: redirectUri(),
        email: tenant.user.email,
        scope: 'signups:read',
        resource: stackInfo().mcpUrl,
      });

    it('refuses a token for the MCP surface at the REST API with 401 invalid_credentials', async () => {
      const tokens = await mcpApp(await registerPublicClient(redirectUri()));
      const res = await me(tokens.access_token);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 401, code: 'invalid_credentials' });
    });

    it("makes the MCP surface's verifier refuse a REST token and accept an MCP token", async () => {
      const config = await registerPublicClient(redirectUri());
      const rest = await restApp(config, 'signups:read');
      const mcp = await mcpApp(config);
      const verifier = new OAuthTokenVerifier(bus, { issuer: oauthIssuer(stackInfo().authUrl), audience: stackInfo().mcpUrl });

      await expect(verifier.verify(rest.access_token)).rejects.toMatchObject({ code: 'invalid_credentials' });
      await expect(verifier.verify(mcp.access_token)).resolves.toMatchObject({
        kind: 'oauth',
        userId: tenant.user.id,
        organizationId: tenant.organization.id,
        scopes: ['signups:read'],
        clientId: config.clientMetadata().client_id,
      });
    });
  });

  describe('token endpoint errors (RFC 6749 section 5.2)', () => {
    const codeFor = async (config: client.Configuration) =>
      authorizeInBrowser(browser, config, {
        redirectUri: redirectUri(),
        email: tenant.user.email,
        scope: 'signups:read',
        resource: baseUrl(),
      });

    const exchange = (config: client.Configuration, code: string, extra: Record<string, string>) =>
      oauthForm('/oauth/token', {
        grant_type: 'authorization_code',
        client_id: config.clientMetadata().client_id,
        code,
        redirect_uri: redirectUri(),
        ...extra,
      });

    it('answers invalid_request to a code exchange without code_verifier', async () => {
      const config = await registerPublicClient(redirectUri());
      const { callback: url } = await codeFor(config);
      const res = await exchange(config, url.searchParams.get('code')!, {});
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it('answers invalid_request to a code_verifier shorter than 43 characters', async () => {
      const config = await registerPublicClient(redirectUri());
      const { callback: url } = await codeFor(config);
      const res = await exchange(config, url.searchParams.get('code')!, { code_verifier: 'too-short' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it('answers invalid_client to an unknown client_id', async () => {
      const res = await oauthForm('/oauth/token', { grant_type: 'refresh_token', client_id: 'cli_unknown', refresh_token: 'whatever' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    });

    it('answers invalid_grant to a code used a second time', async () => {
      const config = await registerPublicClient(redirectUri());
      const { callback: url, verifier } = await codeFor(config);
      const code = url.searchParams.get('code')!;
      expect((await exchange(config, code, { code_verifier: verifier })).status).toBe(200);
      const again = await exchange(config, code, { code_verifier: verifier });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    });

    it('answers invalid_grant to a code_verifier that does not match the challenge', async () => {
      const config = await registerPublicClient(redirectUri());
      const { callback: url } = await codeFor(config);
      const res = await exchange(config, url.searchParams.get('code')!, { code_verifier: client.randomPKCECodeVerifier() });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
    });

    it.each([
      ['refresh_token', 'refresh_token', { refresh_token: 'whatever' }],
      ['device_code', DEVICE_GRANT, { device_code: 'whatever' }],
    ])('answers unauthorized_client to a client registered without the %s grant', async (_name, grantType, extra) => {
      const config = await registerPublicClient(redirectUri(), { grant_types: ['authorization_code'] });
      const res = await oauthForm('/oauth/token', { grant_type: grantType, client_id: config.clientMetadata().client_id, ...extra });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'unauthorized_client', error_description: expect.any(String) });
    });

    it('answers unsupported_grant_type to an unknown grant_type', async () => {
      const config = await registerPublicClient(redirectUri());
      const res = await oauthForm('/oauth/token', {
        grant_type: 'password',
        client_id: config.clientMetadata().client_id,
        username: tenant.user.email,
        password: 'x',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
    });

    it("answers invalid_scope to a device authorization asking beyond the client's registered scope", async () => {
      const config = await registerDeviceClient({ scope: 'signups:read' });
      await expect(
        oauthError(client.initiateDeviceAuthorization(config, { scope: READ_WRITE, resource: baseUrl() })),
      ).resolves.toMatchObject({
        status: 400,
        error: 'invalid_scope',
        error_description: expect.any(String),
      });
    });
  });

  describe('credential prefixes and the redirect back to the app', () => {
    it.each(['Approve', 'Deny'] as const)('answers %s with one 302 to redirect_uri and the state', async (decision) => {
      const config = await registerPublicClient(redirectUri());
      const { decided, state } = await authorizeInBrowser(browser, config, {
        redirectUri: redirectUri(),
        email: tenant.user.email,
        scope: 'signups:read',
        resource: baseUrl(),
        decision,
      });
      expect(decided.status).toBe(302);
      const location = new URL(decided.location ?? '');
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri());
      expect(location.searchParams.get('state')).toBe(state);
      if (decision === 'Approve') expect(location.searchParams.get('code')).toMatch(/^ac_/);
      else expect(location.searchParams.get('error')).toBe('access_denied');
    });

    it('issues ac_ codes, oat_ access tokens and ort_ refresh tokens, and refuses them without their prefix', async () => {
      const config = await registerPublicClient(redirectUri());
      const { callback, verifier, state } = await authorizeInBrowser(browser, config, {
        redirectUri: redirectUri(),
        email: tenant.user.email,
        scope: 'signups:read',
        resource: baseUrl(),
      });
      const code = callback.searchParams.get('code') ?? '';
      expect(code).toMatch(/^ac_/);
      const unprefixed = new URL(callback);
      unprefixed.searchParams.set('code', code.slice('ac_'.length));
      const checks = { pkceCodeVerifier: verifier, expectedState: state };
      await expect(oauthError(client.authorizationCodeGrant(config, unprefixed, checks, { resource: baseUrl() }))).resolves.toMatchObject({
        status: 400,
        error: 'invalid_grant',
      });

      const tokens = await client.authorizationCodeGrant(config, callback, checks, { resource: baseUrl() });
      expect(tokens.access_token).toMatch(/^oat_eyJ/);
      expect(tokens.refresh_token).toMatch(/^ort_/);
      expect((await me(tokens.access_token)).status).toBe(200);
      const bare = await me(tokens.access_token.slice('oat_'.length));
      expect(bare.status).toBe(401);
      expect(bare.body).toMatchObject({ code: 'invalid_credentials' });

      for (const forged of [tokens.refresh_token!.slice('ort_'.length), `ac_${tokens.refresh_token!.slice('ort_'.length)}`]) {
        await expect(oauthError(client.refreshTokenGrant(config, forged))).resolves.toMatchObject({ status: 400, error: 'invalid_grant' });
      }
      expect((await client.refreshTokenGrant(config, tokens.refresh_token!)).refresh_token).toMatch(/^ort_/);
    });

    it('issues dc_ device codes, refuses one without its prefix, and answers unauthorized_client to a client without the device grant', async () => {
      const device = await registerDeviceClient();
      const started = await client.initiateDeviceAuthorization(device, { scope: 'signups:read', resource: baseUrl() });
      expect(started.device_code).toMatch(/^dc_/);
      const res = await oauthForm('/oauth/token', {
        grant_type: DEVICE_GRANT,
        client_id: device.clientMetadata().client_id,
        device_code: started.device_code.slice('dc_'.length),
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });

      const browserApp = await registerPublicClient(redirectUri());
      await expect(
        oauthError(client.initiateDeviceAuthorization(browserApp, { scope: 'signups:read', resource: baseUrl() })),
      ).resolves.toMatchObject({
        status: 400,
        error: 'unauthorized_client',
      });
    });
  });

  it('answers a JWT-looking bearer the auth-server never signed with 401 invalid_credentials', async () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = `${part({ alg: 'ES256', typ: 'at+jwt' })}.${part({ sub: tenant.user.id, aud: baseUrl(), exp: 1 })}.${'A'.repeat(86)}`;
    const res = await me(`oat_${forged}`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ code: 'invalid_credentials' });
  });
});
