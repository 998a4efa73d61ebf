import { createHash } from 'node:crypto';
import { SCOPES } from '#libs/scopes';
import {
  approveConsent,
  bootAuthServer,
  type Browser,
  type FormResult,
  hiddenField,
  jwtPayload,
  type Page,
  PUBLIC_BASE_URL,
  signIn,
} from '../testing/oauth-flow.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

const server = bootAuthServer('auth_device_flow', 'device-admin-token');

function createUser(): ReturnType<typeof server.createUser> {
  return server.createUser('Device org', 'device');
}

function deviceClient(): Promise<string> {
  return server.registerClient({
    client_name: 'Device <CLI>',
    grant_types: [DEVICE_GRANT, 'refresh_token'],
    response_types: [],
    redirect_uris: [],
  });
}

interface Device {
  clientId: string;
  device_code: string;
  user_code: string;
  verification_uri_complete: string;
}

async function startDevice(): Promise<Device> {
  const clientId = await deviceClient();
  const started = await server.postForm('/oauth/device_authorization', {
    client_id: clientId,
    scope: 'signups:read signups:write',
    resource: PUBLIC_BASE_URL,
  });
  expect(started.status).toBe(200);
  return { clientId, ...(started.body as Omit<Device, 'clientId'>) };
}

function poll(device: Device): Promise<FormResult> {
  return server.postForm('/oauth/token', { grant_type: DEVICE_GRANT, client_id: device.clientId, device_code: device.device_code });
}

/** Opens `url` in `browser` and follows redirects to the page. */
async function open(browser: Browser, url: string): Promise<Page> {
  return browser.page(await browser.request(url));
}

/** Opens the device page, continues with the prefilled code, and answers the page that follows. */
async function enterCode(browser: Browser, url: string): Promise<Page> {
  const page = await open(browser, url);
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
  const consent = await browser.page(await signIn(browser, login.html, email));
  expect(consent.status).toBe(200);
  return consent.html;
}

describe('device flow (RFC 8628) pages', () => {
  it('shows a Code field prefilled from user_code and a Continue button, without JavaScript', async () => {
    const device = await startDevice();
    const page = await server.browser().page(await server.browser().request(device.verification_uri_complete));
    expect(page.status).toBe(200);
    expect(page.html).toContain('<label for="user_code">Code</label>');
    expect(hiddenValue(page.html)).toBe(device.user_code);
    expect(page.html).toContain('<button type="submit">Continue</button>');
    expect(page.html).not.toContain('<script');

    const bare = await server.browser().page(await server.browser().request('/oauth/device'));
    expect(hiddenValue(bare.html)).toBe('');
    const escaped = await server.browser().page(await server.browser().request('/oauth/device?user_code=%22%3E%3Cb%3E'));
    expect(escaped.html).toContain('value="&quot;&gt;&lt;b&gt;"');
  });

  it("sends the device pages, the interaction pages and the provider's error pages with framing refused and nothing cached", async () => {
    const expectPageHeaders = (res: Response, csp: string) => {
      expect(res.headers.get('content-security-policy')).toBe(csp);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cache-control')).toBe('no-store');
    };
    const page = "default-src 'none'; style-src 'self'; frame-ancestors 'none'; base-uri 'none'";
    const browser = server.browser();
    const device = await startDevice();
    const form = await browser.request('/oauth/device');
    expectPageHeaders(form, page);
    const entry = await form.text();
    const login = await browser.request('/oauth/device', {
      method: 'POST',
      form: new URLSearchParams([
        ['xsrf', hiddenField(entry, 'xsrf')],
        ['confirm', 'yes'],
        ['user_code', device.user_code],
      ]),
    });
    const loginPage = await browser.request(login.headers.get('location') ?? '');
    expect(await loginPage.text()).toContain('Sign in');
    expectPageHeaders(loginPage, page);
    const unknown = await browser.request('/oauth/device', {
      method: 'POST',
      form: new URLSearchParams([
        ['xsrf', hiddenField(entry, 'xsrf')],
        ['confirm', 'yes'],
        ['user_code', 'BCDF-GHJK'],
      ]),
    });
    expect(unknown.status).toBe(400);
    expectPageHeaders(unknown, page);
    // The provider's own error pages are ours too, with every page's headers.
    expectPageHeaders(await browser.request('/oauth/authorize?client_id=cli_unknown&response_type=code'), page);
  });

  it('signs in, narrows the grant at consent, and hands the polling device a narrowed JWT and a refresh token', async () => {
    const { user, org, email } = await createUser();
    const device = await startDevice();
    const pending = await poll(device);
    expect(pending.status).toBe(400);
    expect(pending.body.error).toBe('authorization_pending');

    const browser = server.browser();
    const consent = await toConsent(browser, device, email);
    expect(consent).toContain('Device &lt;CLI&gt;');
    expect(consent).toContain(SCOPES['signups:read']);
    expect(consent.match(/type="checkbox"[^>]*checked/g)).toHaveLength(2);
    expect(consent).toContain('>Deny</button>');

    const done = await browser.page(await approveConsent(browser, consent, ['signups:read']));
    expect(done.status).toBe(200);
    expect(done.html).toContain('You can go back to your device');

    const issued = await poll(device);
    expect(issued.status).toBe(200);
    expect(issued.body.scope).toBe('signups:read');
    expect(typeof issued.body.refresh_token).toBe('string');
    expect(jwtPayload(issued.body.access_token as string)).toMatchObject({
      aud: PUBLIC_BASE_URL,
      sub: user.id,
      org_id: org.id,
      scope: 'signups:read',
    });

    const refreshed = await server.postForm('/oauth/token', {
      grant_type: 'refresh_token',
      client_id: device.clientId,
      refresh_token: issued.body.refresh_token as string,
    });
    expect(refreshed.status).toBe(200);
    expect(jwtPayload(refreshed.body.access_token as string)).toMatchObject({
      aud: PUBLIC_BASE_URL,
      org_id: org.id,
      scope: 'signups:read',
    });
  });

  it('answers slow_down to a device polling faster than the interval', async () => {
    const device = await startDevice();
    expect((await poll(device)).body.error).toBe('authorization_pending');
    const fast = await poll(device);
    expect(fast.status).toBe(400);
    expect(fast.body.error).toBe('slow_down');
  });

  it("keeps a device code's last poll under the SHA-256 of the code, for the code's lifetime", async () => {
    const device = await startDevice();
    const before = Date.now() - 1000;
    expect((await poll(device)).body.error).toBe('authorization_pending');
    const rows = await server
      .dataSource()
      .query<{ device_code_hash: string; polled_at: Date; lifetime: number }[]>(
        `SELECT "device_code_hash", "polled_at", round(extract(epoch FROM "expires_at" - now()) / 60)::int AS "lifetime" FROM "auth"."oauth_device_polls" WHERE "device_code_hash" = $1`,
        [createHash('sha256').update(device.device_code).digest('hex')],
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.polled_at.getTime()).toBeGreaterThan(before);
    expect(rows[0]?.lifetime).toBe(10);
  });

  it('answers access_denied to the polling device when the user denies', async () => {
    const { email } = await createUser();
    const device = await startDevice();
    const browser = server.browser();
    const consent = await toConsent(browser, device, email);
    const denied = await browser.submit(consent, [['csrf', hiddenField(consent, 'csrf')]], 'Deny');
    expect(denied.html).toContain('Access was denied');
    const polled = await poll(device);
    expect(polled.status).toBe(400);
    expect(polled.body.error).toBe('access_denied');
  });

  it('says so on the page for an unknown or expired code', async () => {
    const unknown = await enterCode(server.browser(), '/oauth/device?user_code=BCDF-GHJK');
    expect(unknown.status).toBe(400);
    expect(unknown.html).toContain('That code is unknown.');
    expect(unknown.html).toContain('<label for="user_code">Code</label>');

    const device = await startDevice();
    const dataSource = server.dataSource();
    await dataSource.query(
      `UPDATE "auth"."oauth_store" SET "payload" = jsonb_set("payload", '{exp}', to_jsonb(1)) WHERE "model" = 'DeviceCode' AND "id" = $1`,
      [createHash('sha256').update(device.device_code).digest('hex')],
    );
    const expired = await enterCode(server.browser(), device.verification_uri_complete);
    expect(expired.status).toBe(400);
    expect(expired.html).toContain('That code has expired.');
  });

  it('refuses the code form without the xsrf token', async () => {
    const device = await startDevice();
    const browser = server.browser();
    const page = await open(browser, device.verification_uri_complete);
    const forged = await browser.submit(page.html, [
      ['xsrf', 'forged'],
      ['confirm', 'yes'],
      ['user_code', device.user_code],
    ]);
    expect(forged.status).toBe(400);
    expect(forged.html).not.toContain('Sign in');
  });
});
