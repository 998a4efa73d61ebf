import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { type ApiResponse, request } from './api.js';
import { stackInfo } from './stack-env.js';

/** The password newTenant gives every owner. */
export const TENANT_PASSWORD = 'correct horse battery staple';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** RFC 8414 discovery over plain http (the local stack has no TLS). */
const DISCOVERY: client.DiscoveryRequestOptions = { algorithm: 'oauth2', execute: [client.allowInsecureRequests] };

/** The issuer identifier {auth_url}, where discovery starts. */
function issuerUrl(): URL {
  return new URL(stackInfo().authUrl);
}

/** Registers a client by RFC 7591 DCR at the discovered registration endpoint. */
function registerClient(metadata: Partial<client.ClientMetadata>): Promise<client.Configuration> {
  return client.dynamicClientRegistration(issuerUrl(), { client_name: 'E2E <App>', ...metadata }, undefined, DISCOVERY);
}

/** A public client for the code flow with PKCE that may refresh. */
export function registerPublicClient(redirectUri: string, metadata: Partial<client.ClientMetadata> = {}): Promise<client.Configuration> {
  return registerClient({
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_method: 'none',
    ...metadata,
  });
}

/** A headless client for the device flow (RFC 8628). */
export function registerDeviceClient(metadata: Partial<client.ClientMetadata> = {}): Promise<client.Configuration> {
  return registerClient({
    grant_types: [DEVICE_GRANT, 'refresh_token'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'none',
    ...metadata,
  });
}

/** The client as configured by discovery alone, with a secret of our choosing. */
export function discoverWithSecret(clientId: string, clientSecret: string): Promise<client.Configuration> {
  return client.discovery(issuerUrl(), clientId, { client_secret: clientSecret }, client.ClientSecretPost(clientSecret), DISCOVERY);
}

/** The app's redirect target: a loopback HTTP server that answers every request with a short page. */
export interface CallbackServer {
  redirectUri: string;
  close(): Promise<void>;
}

export async function startCallbackServer(): Promise<CallbackServer> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Runs `use` on a page of a fresh browser context (no session cookie left by an earlier sign-in), then closes it. */
export async function withPage<T>(browser: Browser, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TENANT_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** On the consent page: unchecks `uncheck` (scope names), then Approve or Deny. */
export async function consent(page: Page, decision: 'Approve' | 'Deny', uncheck: string[] = []): Promise<void> {
  await page.getByRole('button', { name: 'Approve' }).waitFor();
  for (const scope of uncheck) await page.getByRole('checkbox', { name: new RegExp(`^${scope}:`) }).uncheck();
  await page.getByRole('button', { name: decision }).click();
}

export interface AuthorizeOptions {
  redirectUri: string;
  email: string;
  scope: string;
  resource: string;
  decision?: 'Approve' | 'Deny';
  uncheck?: string[];
}

export interface Authorized {
  /** The URL the browser was sent back to. */
  callback: URL;
  verifier: string;
  state: string;
  /** The answer to the Approve or Deny form post itself. */
  decided: { status: number; location: string | null };
}

/** Sends a browser through /oauth/authorize (code + PKCE S256), sign-in and consent, to the redirect. */
export async function authorizeInBrowser(browser: Browser, config: client.Configuration, options: AuthorizeOptions): Promise<Authorized> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri,
    scope: options.scope,
    state,
    resource: options.resource,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return withPage(browser, async (page) => {
    await page.goto(url.href);
    await signIn(page, options.email);
    const decision = page.waitForResponse(
      (res) => res.request().method() === 'POST' && /\/interaction\/(confirm|abort)$/.test(new URL(res.url()).pathname),
    );
    await consent(page, options.decision ?? 'Approve', options.uncheck);
    const decided = await decision;
    await page.waitForURL((at) => at.href.startsWith(`${options.redirectUri}?`));
    return {
      callback: new URL(page.url()),
      verifier,
      state,
      decided: { status: decided.status(), location: await decided.headerValue('location') },
    };
  });
}

/** The code flow end to end: the browser part, then the exchange with the verifier for `resource`. */
export async function connectApp(
  browser: Browser,
  config: client.Configuration,
  options: Omit<AuthorizeOptions, 'decision'>,
): Promise<client.TokenEndpointResponse> {
  const { callback, verifier, state } = await authorizeInBrowser(browser, config, options);
  return client.authorizationCodeGrant(
    config,
    callback,
    { pkceCodeVerifier: verifier, expectedState: state },
    { resource: options.resource },
  );
}

/** A plain form post to an endpoint under {auth_url}, answering the RFC 6749 section 5.2 body. */
export function oauthForm(
  path: string,
  form: Record<string, string>,
): Promise<ApiResponse<{ error?: string; error_description?: string }>> {
  return request(`${stackInfo().authUrl}${path}`, {
    method: 'POST',
    body: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

export interface OAuthErrorResponse {
  status: number;
  error: string;
  error_description?: string;
}

/** The OAuth error response (RFC 6749 section 5.2) that openid-client rejected `attempt` with. */
export async function oauthError(attempt: Promise<unknown>): Promise<OAuthErrorResponse> {
  try {
    await attempt;
  } catch (err) {
    if (err instanceof client.ResponseBodyError) return { status: err.status, error: err.error, error_description: err.error_description };
    throw err;
  }
  throw new Error('expected an OAuth error response');
}
