/** Shared helpers for the account pages' integration specs: a server behind a trusted proxy, and a browser with its own client IP. */
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { CloudEvent, EventType, OrganizationView, UserView } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import {
  type AlongsideApp,
  authorizeUrl,
  bootAuthServer,
  type Field,
  type FormResult,
  PASSWORD,
  pkce,
  REDIRECT_URI,
} from '../testing/oauth-flow.js';

export { REDIRECT_URI };

export interface Page {
  status: number;
  headers: Headers;
  html: string;
}

/** Every form on a page whose button has this text: its action and hidden fields. */
export function formsWithButton(html: string, button: string): { action: string; hidden: Field[] }[] {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)];
  return forms
    .filter((f) => (f[2] ?? '').includes(`>${button}</button>`))
    .map((f) => ({
      action: (f[1] ?? '').replaceAll('&amp;', '&'),
      hidden: [...(f[2] ?? '').matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((h): Field => [h[1] ?? '', h[2] ?? '']),
    }));
}

/** A browser with a cookie jar and a client IP (sent as X-Forwarded-For); redirects are not followed. */
export class PageBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    readonly ip: string,
  ) {}

  /** A GET, or a POST of `form`; `method` POST without a form sends a POST with no body at all. */
  async request(path: string, form?: Field[], method = form ? 'POST' : 'GET'): Promise<Response> {
    const headers: Record<string, string> = { 'x-forwarded-for': this.ip };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      body: form && new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1).trim();
      if (value) this.cookies.set(pair.slice(0, eq).trim(), value);
      else this.cookies.delete(pair.slice(0, eq).trim());
    }
    return res;
  }

  async page(path: string, form?: Field[]): Promise<Page> {
    const res = await this.request(path, form);
    return { status: res.status, headers: res.headers, html: await res.text() };
  }

  /** Follows redirects on this origin; stops at a page or at the OAuth client's redirect_uri. */
  async follow(res: Response): Promise<{ page?: Page; callback?: URL; url: string }> {
    let current = res;
    let url = '';
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || !location) {
        return { page: { status: current.status, headers: current.headers, html: await current.text() }, url };
      }
      const next = new URL(location, this.baseUrl);
      if (next.href.startsWith(REDIRECT_URI)) return { callback: next, url };
      url = next.pathname + next.search;
      current = await this.request(url);
    }
    throw new Error('too many redirects');
  }

  /** Posts the form on `html` that has this button, with its hidden fields and `fields`. */
  async submit(html: string, button: string, fields: Field[] = []): Promise<Response> {
    const [form] = formsWithButton(html, button);
    if (!form) throw new Error(`no form with a ${button} button in ${html}`);
    return this.request(form.action, [...form.hidden, ...fields]);
  }
}

export interface AccountServer {
  readonly running: RunningApp;
  readonly url: string;
  /** Every event of these types the app publishes from now on. */
  collect(types: EventType[]): CloudEvent[];
  admin<T>(path: string, body: Record<string, unknown>): Promise<T>;
  dataSource(): DataSource;
  createUser(
    orgName: string,
    role?: 'owner' | 'admin' | 'member',
    organizationId?: string,
  ): Promise<{ user: UserView; orgId: string; email: string }>;
  registerClient(): Promise<string>;
  token(form: Record<string, string>): Promise<FormResult>;
  /** A browser from a client IP of its own, so each test has its own per-IP login limit. */
  browser(): PageBrowser;
}

let ips = 0;
let emails = 0;

/**
 * Boots the auth server behind a trusted proxy, its login limiter on this machine's Redis under a
 * prefix of its own, with the apps it talks to in the spec (`alongside`).
 */
export function bootAccountServer(label: string, alongside?: () => AlongsideApp[]): AccountServer {
  const server = bootAuthServer(label, `${label}-admin-token`, {
    redis: true,
    env: { TRUST_PROXY: 'true', LOGIN_RATE_LIMIT_PREFIX: `auth-login-test-${randomBytes(6).toString('hex')}` },
    alongside,
  });
  return {
    get running(): RunningApp {
      return server.running;
    },
    get url(): string {
      return server.url;
    },
    collect: (types) => server.collect(types),
    admin: (path, body) => server.admin(path, body),
    dataSource: () => server.dataSource(),
    async createUser(orgName, role, organizationId) {
      const orgId = organizationId ?? (await server.admin<OrganizationView>('/admin/organizations', { name: orgName })).id;
      const email = `account${++emails}-${randomBytes(4).toString('hex')}@example.test`;
      const user = await server.admin<UserView>('/admin/users', {
        email,
        password: PASSWORD,
        organizationId: orgId,
        ...(role && { role }),
      });
      return { user, orgId, email };
    },
    registerClient: () =>
      server.registerClient({
        client_name: 'Connected <App>',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    token: (form) => server.postForm('/oauth/token', form),
    browser: () => new PageBrowser(server.url, `198.51.100.${++ips}`),
  };
}

export interface StartedFlow {
  clientId: string;
  verifier: string;
  /** The OAuth login page the browser landed on. */
  login: Page;
  loginPath: string;
}

/** Starts an authorization code flow with PKCE in the browser, up to the OAuth login page. */
export async function startCodeFlow(server: AccountServer, browser: PageBrowser): Promise<StartedFlow> {
  const clientId = await server.registerClient();
  const { verifier, challenge } = pkce();
  const { page, url } = await browser.follow(await browser.request(authorizeUrl(clientId, challenge)));
  if (page?.status !== 200) throw new Error(`expected the login page, got ${page?.status}`);
  return { clientId, verifier, login: page, loginPath: url };
}
