import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { OrganizationView, UserView } from '#libs/contracts';
import { DATA_SOURCE, type RunningApp } from '#libs/runtime';
import { SCOPES } from '#libs/scopes';
import { createTestStack, freePorts, type TestStack } from '#libs/testing';
import { authServerApp } from '../index.js';

const ADMIN_TOKEN = 'device-admin-token';
const PUBLIC_BASE_URL = 'http://localhost:3000/api/v1';
const PASSWORD = 'correct horse battery';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

let stack: TestStack;
let running: RunningApp;

beforeAll(async () => {
  const [port] = await freePorts(1);
  stack = await createTestStack('auth_device_flow');
  running = await stack.boot(authServerApp, {
    ADMIN_TOKEN,
    AUTH_SERVER_PORT: String(port),
    AUTH_URL: `http://127.0.0.1:${port}`,
    PUBLIC_BASE_URL,
  });
});

afterAll(async () => {
  await stack?.close();
});

async function admin<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as T;
}

async function createUser(): Promise<{ user: UserView; org: OrganizationView; email: string }> {
  const org = await admin<OrganizationView>('/admin/organizations', { name: 'Device org' });
  const email = `device-${randomBytes(4).toString('hex')}@example.test`;
  const user = await admin<UserView>('/admin/users', { email, password: PASSWORD, organizationId: org.id });
  return { user, org, email };
}

async function deviceClient(): Promise<string> {
  const res = await fetch(`${running.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Device <CLI>',
      grant_types: [DEVICE_GRANT, 'refresh_token'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'none',
      scope: 'signups:read signups:write',
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

async function postForm(path: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

interface Device {
  clientId: string;
  device_code: string;
  user_code: string;
  verification_uri_complete: string;
}

async function startDevice(): Promise<Device> {
  const clientId = await deviceClient();
  const started = await postForm('/oauth/device_authorization', { client_id: clientId, scope: 'signups:read signups:write', resource: PUBLIC_BASE_URL });
  expect(started.status).toBe(200);
  return { clientId, ...(started.body as Omit<Device, 'clientId'>) };
}

function poll(device: Device): ReturnType<typeof postForm> {
  return postForm('/oauth/token', { grant_type: DEVICE_GRANT, client_id: device.clientId, device_code: device.device_code });
}

/** A browser: a cookie jar and fetch without following redirects. */
class Browser {
  private readonly cookies = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: URLSearchParams } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(new URL(url, running.url), { method: init.method ?? 'GET', headers, body: init.form?.toString(), redirect: 'manual' });
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

  /** Follows redirects until a page. */
  async follow(res: Response): Promise<{ status: number; html: string }> {
    let current = res;
    for (let hops = 0; hops < 10; hops++) {
      const location = current.headers.get('location');
      if (current.status < 300 || current.status >= 400 || !location) return { status: current.status, html: await current.text() };
      current = await this.request(new URL(location, running.url).href);
    }
    throw new Error('too many redirects');
  }

  async submit(html: string, fields: [string, string][], button?: string): Promise<{ status: number; html: string }> {
    const res = await this.request(formAction(html, button), { method: 'POST', form: new URLSearchParams(fields) });
    return this.follow(res);
  }
}

function formAction(html: string, button?: string): string {
  if (button) {
    const formaction = new RegExp(`formaction="([^"]+)"[^>]*>${button}<`).exec(html);
    if (formaction?.[1]) return formaction[1];
  }
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no form in ${html}`);
  return action;
}

function hiddenField(html: string, name: string): string {
  const value = new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1];
  if (value === undefined) throw new Error(`no ${name} field in ${html}`);
  return value;
}

function jwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;
}

/** Opens the device page, continues with the prefilled code, and answers the page that follows. */
async function enterCode(browser: Browser, url: string): Promise<{ status: number; html: string }> {
  const page = await browser.follow(await browser.request(url));
  expect(page.status).toBe(200);
  return browser.submit(page.html, [
    ['xsrf', hiddenField(page.html, 'xsrf')],
    ['confirm', 'yes'],
    ['user_code', hiddenValue(page.html)],
  ]);
}

function hiddenValue(html: string): string {
  return /id="user_code"[^>]* value="([^"]*)"/.exec(html)?.[1] ?? '';
}

async function toConsent(browser: Browser, device: Device, email: string): Promise<string> {
  const login = await enterCode(browser, device.verification_uri_complete);
  expect(login.status).toBe(200);
  expect(login.html).toContain('<button type="submit">Sign in</button>');
  const consent = await browser.submit(login.html, [
    ['csrf', hiddenField(login.html, 'csrf')],
    ['email', email],
    ['password', PASSWORD],
  ]);
  expect(consent.status).toBe(200);
  return consent.html;
}

describe('device flow (RFC 8628) pages', () => {
  it('shows a Code field prefilled from user_code and a Continue button, without JavaScript', async () => {
    const device = await startDevice();
    const page = await new Browser().follow(await new Browser().request(device.verification_uri_complete));
    expect(page.status).toBe(200);
    expect(page.html).toContain('<label for="user_code">Code</label>');
    expect(hiddenValue(page.html)).toBe(device.user_code);
    expect(page.html).toContain('<button type="submit">Continue</button>');
    expect(page.html).not.toContain('<script');

    const bare = await new Browser().follow(await new Browser().request('/oauth/device'));
    expect(hiddenValue(bare.html)).toBe('');
    const escaped = await new Browser().follow(await new Browser().request('/oauth/device?user_code=%22%3E%3Cb%3E'));
    expect(escaped.html).toContain('value="&#34;&#62;&#60;b&#62;"');
  });

  it('signs in, narrows the grant at consent, and hands the polling device a narrowed JWT and a refresh token', async () => {
    const { user, org, email } = await createUser();
    const device = await startDevice();
    const pending = await poll(device);
    expect(pending.status).toBe(400);
    expect(pending.body.error).toBe('authorization_pending');

    const browser = new Browser();
    const consent = await toConsent(browser, device, email);
    expect(consent).toContain('Device &#60;CLI&#62;');
    expect(consent).toContain(SCOPES['signups:read']);
    expect(consent.match(/type="checkbox"[^>]*checked/g)).toHaveLength(2);
    expect(consent).toContain('>Deny</button>');

    const done = await browser.submit(consent, [
      ['csrf', hiddenField(consent, 'csrf')],
      ['scope', 'signups:read'],
    ]);
    expect(done.status).toBe(200);
    expect(done.html).toContain('You can go back to your device');

    const issued = await poll(device);
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('signups:read');
    expect(typeof issued.body.refresh_token).toBe('string');
    expect(jwtPayload(issued.body.access_token as string)).toMatchObject({ aud: PUBLIC_BASE_URL, sub: user.id, org_id: org.id, scope: 'signups:read' });

    const refreshed = await postForm('/oauth/token', { grant_type: 'refresh_token', client_id: device.clientId, refresh_token: issued.body.refresh_token as string });
    expect(refreshed.status).toBe(200);
    expect(jwtPayload(refreshed.body.access_token as string)).toMatchObject({ aud: PUBLIC_BASE_URL, org_id: org.id, scope: 'signups:read' });
  });

  it('answers slow_down to a device polling faster than the interval', async () => {
    const device = await startDevice();
    expect((await poll(device)).body.error).toBe('authorization_pending');
    const fast = await poll(device);
    expect(fast.status).toBe(400);
    expect(fast.body.error).toBe('slow_down');
  });

  it('answers access_denied to the polling device when the user denies', async () => {
    const { email } = await createUser();
    const device = await startDevice();
    const browser = new Browser();
    const consent = await toConsent(browser, device, email);
    const denied = await browser.submit(consent, [['csrf', hiddenField(consent, 'csrf')]], 'Deny');
    expect(denied.html).toContain('Access was denied');
    const polled = await poll(device);
    expect(polled.status).toBe(400);
    expect(polled.body.error).toBe('access_denied');
  });

  it('says so on the page for an unknown or expired code', async () => {
    const unknown = await enterCode(new Browser(), '/oauth/device?user_code=BCDF-GHJK');
    expect(unknown.status).toBe(400);
    expect(unknown.html).toContain('That code is unknown.');
    expect(unknown.html).toContain('<label for="user_code">Code</label>');

    const device = await startDevice();
    const dataSource = running.app.get<DataSource>(DATA_SOURCE);
    await dataSource.query(
      `UPDATE "auth"."oauth_store" SET "payload" = jsonb_set("payload", '{exp}', to_jsonb(1)) WHERE "model" = 'DeviceCode' AND "id" = $1`,
      [device.device_code],
    );
    const expired = await enterCode(new Browser(), device.verification_uri_complete);
    expect(expired.status).toBe(400);
    expect(expired.html).toContain('That code has expired.');
  });

  it('refuses the code form without the xsrf token', async () => {
    const device = await startDevice();
    const browser = new Browser();
    const page = await browser.follow(await browser.request(device.verification_uri_complete));
    const forged = await browser.submit(page.html, [
      ['xsrf', 'forged'],
      ['confirm', 'yes'],
      ['user_code', device.user_code],
    ]);
    expect(forged.status).toBe(400);
    expect(forged.html).not.toContain('Sign in');
  });
});
