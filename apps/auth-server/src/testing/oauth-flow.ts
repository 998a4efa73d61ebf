/** Shared helpers for the auth server's browser-driven OAuth flow integration specs. */
import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Bus } from '#libs/bus';
import type { CloudEvent, EventType, OrganizationView, UserView } from '#libs/contracts';
import { type AppDefinition, DATA_SOURCE, type RunningApp } from '#libs/runtime';
import { createTestStack, freePorts, type TestStack } from '#libs/testing';
import { authServerApp } from '../index.js';

export const PUBLIC_BASE_URL = 'http://localhost:3000/api/v1';
/** Where the test clients are registered to be sent back (nothing listens: the tests read the redirect). */
export const REDIRECT_URI = 'http://127.0.0.1:9999/callback';

/** The authorize URL (path and query) for a client, with a PKCE challenge and the REST resource unless overridden. */
export function authorizeUrl(clientId: string, challenge: string, overrides: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'signups:read signups:write',
    state: 'st',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: PUBLIC_BASE_URL,
    ...overrides,
  });
  return `/oauth/authorize?${params.toString()}`;
}
export const PASSWORD = 'correct horse battery';

export type FormResult = { status: number; body: Record<string, unknown> };
export type Page = { url: string; status: number; html: string };
export type Field = [string, string];

/** A browser: a cookie jar and fetch without following redirects; stops at `redirectUri` when given. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly redirectUri?: string,
  ) {}

  async request(url: string, init: { method?: string; form?: URLSearchParams } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(new URL(url, this.baseUrl), {
      method: init.method ?? 'GET',
      headers,
      body: init.form?.toString(),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=/i.test(a) && new Date(a.split('=')[1] ?? '').getTime() < Date.now());
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** The value of a cookie this browser holds. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** Follows redirects until a page or the client's redirect_uri. */
  async follow(res: Response): Promise<{ page?: Page; callback?: URL }> {
    let current = res;
    let url = '';
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || !location) {
        return { page: { url, status: current.status, html: await current.text() } };
      }
      const next = new URL(location, this.baseUrl);
      if (this.redirectUri && next.href.startsWith(this.redirectUri)) return { callback: next };
      url = next.href;
      current = await this.request(url);
    }
    throw new Error('too many redirects');
  }

  /** Follows redirects and expects to land on a page. */
  async page(res: Response): Promise<Page> {
    const { page } = await this.follow(res);
    if (!page) throw new Error('expected a page');
    return page;
  }

  async post(url: string, fields: Field[]): Promise<Response> {
    return this.request(url, { method: 'POST', form: new URLSearchParams(fields) });
  }

  /** Posts the page's form (or a button's formaction) and follows to the next page. */
  async submit(html: string, fields: Field[], button?: string): Promise<Page> {
    return this.page(await this.post(formAction(html, button), fields));
  }
}

export function formAction(html: string, button?: string): string {
  if (button) {
    const formaction = new RegExp(`formaction="([^"]+)"[^>]*>${button}<`).exec(html);
    if (formaction?.[1]) return formaction[1];
  }
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in ${html}`);
  return action;
}

export function hiddenField(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`no ${name} field in ${html}`);
  return value;
}

export function csrf(html: string): string {
  const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no csrf field');
  return token;
}

export function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Posts the login form on `loginHtml` with the interaction csrf token. */
export function signIn(browser: Browser, loginHtml: string, email: string, password = PASSWORD): Promise<Response> {
  return browser.post(formAction(loginHtml), [
    ['csrf', csrf(loginHtml)],
    ['email', email],
    ['password', password],
  ]);
}

/** Posts the consent form on `consentHtml`, keeping only `scopes` and optionally choosing an organization. */
export function approveConsent(browser: Browser, consentHtml: string, scopes: string[], organization?: string): Promise<Response> {
  const fields: Field[] = [['csrf', csrf(consentHtml)], ...scopes.map((s): Field => ['scope', s])];
  if (organization) fields.push(['organization', organization]);
  return browser.post(formAction(consentHtml), fields);
}

export interface AuthServer {
  readonly running: RunningApp;
  readonly url: string;
  /** The stack's bus, to call auth.* subjects as another app would. */
  readonly bus: Bus;
  /** Every event of these types the app publishes from the spec's start on. */
  collect(types: EventType[]): CloudEvent[];
  dataSource(): DataSource;
  admin<T>(path: string, body: Record<string, unknown>): Promise<T>;
  createUser(orgName: string, emailPrefix: string): Promise<{ user: UserView; org: OrganizationView; email: string }>;
  registerClient(metadata: Record<string, unknown>): Promise<string>;
  postForm(path: string, form: Record<string, string>): Promise<FormResult>;
  browser(redirectUri?: string): Browser;
}

/** Another app booted on the auth server's stack (its bus and database), with AUTH_URL and these settings. */
export interface AlongsideApp {
  definition: AppDefinition;
  env: Record<string, string>;
}

export interface BootOptions {
  env?: Record<string, string>;
  /** Gives the app this machine's Redis (the login limiter's store) instead of memory. */
  redis?: boolean;
  /** The apps the auth server talks to in this spec, asked for when the stack boots (after the spec's earlier beforeAll hooks). */
  alongside?: () => AlongsideApp[];
}

/** Boots the auth server on a free port (with AUTH_URL) in a fresh test stack for the enclosing spec file. */
export function bootAuthServer(label: string, adminToken: string, options: BootOptions = {}): AuthServer {
  let stack: TestStack | undefined;
  let running: RunningApp | undefined;

  beforeAll(async () => {
    const [port] = await freePorts(1);
    stack = await createTestStack(label);
    if (options.redis) stack.infrastructure.redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    for (const other of options.alongside?.() ?? []) {
      await stack.boot(other.definition, { AUTH_URL: `http://127.0.0.1:${port}`, PUBLIC_BASE_URL, ...other.env });
    }
    running = await stack.boot(authServerApp, {
      ADMIN_TOKEN: adminToken,
      AUTH_SERVER_PORT: String(port),
      AUTH_URL: `http://127.0.0.1:${port}`,
      PUBLIC_BASE_URL,
      // Every spec registers its clients from 127.0.0.1: the per-IP limit is tested on its own.
      OAUTH_REGISTRATIONS_PER_HOUR: '100000',
      ...options.env,
    });
  });

  afterAll(async () => {
    await stack?.close();
  });

  const server: AuthServer = {
    get running(): RunningApp {
      if (!running) throw new Error('the auth server is not running');
      return running;
    },
    get url(): string {
      return server.running.url;
    },
    get bus(): Bus {
      if (!stack) throw new Error('the auth server is not running');
      return stack.bus;
    },
    collect(types) {
      const events: CloudEvent[] = [];
      beforeAll(async () => {
        await server.bus.broadcast(types, async (event) => {
          events.push(event);
        });
      });
      return events;
    },
    dataSource: () => server.running.app.get<DataSource>(DATA_SOURCE),
    async admin<T>(path: string, body: Record<string, unknown>): Promise<T> {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(201);
      return (await res.json()) as T;
    },
    async createUser(orgName, emailPrefix) {
      const org = await server.admin<OrganizationView>('/admin/organizations', { name: orgName });
      const email = `${emailPrefix}-${randomBytes(4).toString('hex')}@example.test`;
      const user = await server.admin<UserView>('/admin/users', { email, password: PASSWORD, organizationId: org.id });
      return { user, org, email };
    },
    async registerClient(metadata) {
      const res = await fetch(`${server.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...metadata, token_endpoint_auth_method: 'none', scope: 'signups:read signups:write' }),
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { client_id: string }).client_id;
    },
    async postForm(path, form) {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    browser: (redirectUri) => new Browser(server.url, redirectUri),
  };
  return server;
}

export interface IssuedTokens {
  clientId: string;
  accessToken: string;
  refreshToken: string;
}

/** Runs the whole code flow for a user (sign-in, approve every requested scope) and exchanges the code. */
export async function obtainTokens(
  server: AuthServer,
  email: string,
  scope = 'signups:read',
  resource = PUBLIC_BASE_URL,
): Promise<IssuedTokens> {
  const redirectUri = 'http://127.0.0.1:9999/callback';
  const clientId = await server.registerClient({
    client_name: 'Token app',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
  });
  const browser = server.browser(redirectUri);
  const { verifier, challenge } = pkce();
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state: 'state',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
  });
  const login = await browser.page(await browser.request(`/oauth/authorize?${params.toString()}`));
  const consent = await browser.page(await signIn(browser, login.html, email));
  const { callback } = await browser.follow(await approveConsent(browser, consent.html, scope.split(' ')));
  const code = callback?.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback?.href ?? 'the flow'}`);
  const issued = await server.postForm('/oauth/token', {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: redirectUri,
  });
  if (issued.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(issued.body)}`);
  return { clientId, accessToken: issued.body.access_token as string, refreshToken: issued.body.refresh_token as string };
}
