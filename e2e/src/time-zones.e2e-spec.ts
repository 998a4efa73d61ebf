import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import type { MeView, RegistrationResultView, SignupView, ZonedSignupDraft } from '#libs/contracts';
import type { ProblemBody } from '#libs/problem';
import { accessibilityViolations, launchChromium } from '#libs/testing';
import { call, newTenant, setTimeZone, signupBody, type Tenant } from './support/api.js';
import { signIn, withPage } from './support/oauth.js';
import { newSignup, person } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

type ToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

/** Time zones across the stack: the organization's default, a signup's own, the 422s, and what people read. */
describe('time zones', () => {
  let tenant: Tenant;

  beforeAll(async () => {
    tenant = await newTenant('pro');
    await setTimeZone(tenant.organization.id, 'America/New_York');
  });

  const create = (body: Record<string, unknown>, key = tenant.key) => call<SignupView>('/signups', { key, body: signupBody(body) });

  it('shows the organization with its zone on GET /me, UTC until it is set', async () => {
    const fresh = await newTenant('free');
    expect((await call<MeView>('/me', { key: fresh.key })).body.organization.timeZone).toBe('UTC');
    expect((await call<MeView>('/me', { key: tenant.key })).body.organization).toMatchObject({
      id: tenant.organization.id,
      timeZone: 'America/New_York',
    });
  });

  it("gives a signup created without a zone its organization's, and keeps it when the organization's changes later", async () => {
    const own = await newTenant('pro');
    await setTimeZone(own.organization.id, 'Europe/Berlin');
    const before = await create({ title: 'Before the move' }, own.key);
    expect(before.status).toBe(201);
    expect(before.body.timeZone).toBe('Europe/Berlin');
    await setTimeZone(own.organization.id, 'Asia/Tokyo');
    const after = await create({ title: 'After the move' }, own.key);
    expect(after.body.timeZone).toBe('Asia/Tokyo');
    expect((await call<SignupView>(`/signups/${before.body.id}`, { key: own.key })).body.timeZone).toBe('Europe/Berlin');
  });

  it("takes the zone given over the organization's, and a new one by PATCH", async () => {
    const created = await create({ timeZone: 'Australia/Adelaide' });
    expect(created.status).toBe(201);
    expect(created.body.timeZone).toBe('Australia/Adelaide');
    const moved = await call<SignupView>(`/signups/${created.body.id}`, {
      key: tenant.key,
      method: 'PATCH',
      body: { timeZone: 'US/Pacific' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ timeZone: 'America/Los_Angeles', eventDate: created.body.eventDate });
  });

  it.each(['+05:00', 'GMT+1', 'UTC+01:00', 'Etc/GMT+5', 'EST', '', 'America/New_Y\u043erk', '../../etc/passwd', 5])(
    'refuses the zone %j with 422 validation_failed on timeZone, on create and on PATCH',
    async (timeZone) => {
      const refused = await create({ timeZone });
      expect(refused.status).toBe(422);
      expect((refused.body as unknown as ProblemBody).errors).toEqual([{ path: 'timeZone', message: expect.any(String) }]);
      const signup = (await create({})).body;
      const patched = await call<ProblemBody>(`/signups/${signup.id}`, { key: tenant.key, method: 'PATCH', body: { timeZone } });
      expect(patched.status).toBe(422);
      expect(patched.body.errors).toEqual([{ path: 'timeZone', message: expect.any(String) }]);
      expect((await call<SignupView>(`/signups/${signup.id}`, { key: tenant.key })).body.timeZone).toBe('America/New_York');
    },
  );

  it("takes and refuses the zone over MCP as over REST, and whoami names the organization's", async () => {
    const client = new Client({ name: 'e2e-zones', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(stackInfo().mcpUrl), {
        requestInit: { headers: { authorization: `Bearer ${tenant.key}` } },
      }),
    );
    try {
      const tool = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolResult;
      expect((await tool('whoami', {})).structuredContent).toMatchObject({ organization: { timeZone: 'America/New_York' } });
      const created = await tool('create_signup', { title: 'Over MCP', eventDate: '2027-06-01T18:00:00Z', timeZone: 'Europe/Paris' });
      expect(created.structuredContent).toMatchObject({ timeZone: 'Europe/Paris' });
      const defaulted = await tool('create_signup', { title: 'Over MCP', eventDate: '2027-06-01T18:00:00Z' });
      expect(defaulted.structuredContent).toMatchObject({ timeZone: 'America/New_York' });
      const refused = await tool('update_signup', { signupId: (created.structuredContent as { id: string }).id, timeZone: '+01:00' });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ code: 'validation_failed', errors: [{ path: 'timeZone' }] });
    } finally {
      await client.close();
    }
  });

  it("shows the signup page and the participant's page in the signup's zone, the instant kept as ISO", async () => {
    const { signup } = await newSignup(tenant.key, {
      fields: { eventDate: '2027-12-04T22:00:00.000Z' },
      slots: [{ title: 'Setup', capacity: 3, startTime: '2027-12-04T21:00:00.000Z', endTime: '2027-12-04T23:00:00.000Z' }],
    });
    expect(signup.timeZone).toBe('America/New_York');
    const page = await (await fetch(`${stackInfo().gatewayUrl}/s/${signup.slug}`)).text();
    expect(page).toContain('<time datetime="2027-12-04T22:00:00.000Z">Sat, Dec 4, 2027, 5:00 PM EST</time>');
    expect(page).toContain('Sat, Dec 4, 2027, 4:00 – 6:00 PM EST');
    const registered = await call<RegistrationResultView>(`/signups/${signup.id}/participants`, { body: person() });
    const manage = await (await fetch(`${stackInfo().gatewayUrl}/r/${registered.body.confirmationToken}`)).text();
    expect(manage).toContain('<time datetime="2027-12-04T22:00:00.000Z">Sat, Dec 4, 2027, 5:00 PM EST</time>');
  });

  it("drafts in the organization's zone unless the body names one, and the draft says which", async () => {
    const description = 'Potluck on December 4, 2027 at 5pm at the park: 2 salads';
    const draft = async (body: Record<string, unknown>) =>
      (await call<{ draft: ZonedSignupDraft }>('/signups/from-description', { key: tenant.key, body: { description, ...body } })).body
        .draft;
    expect(await draft({})).toMatchObject({ eventDate: '2027-12-04T22:00:00.000Z', timeZone: 'America/New_York' });
    expect(await draft({ timeZone: 'Europe/London' })).toMatchObject({ eventDate: '2027-12-04T17:00:00.000Z', timeZone: 'Europe/London' });
    const refused = await call<ProblemBody>('/signups/from-description', { key: tenant.key, body: { description, timeZone: 'GMT+1' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ path: 'timeZone', message: expect.any(String) }]);
  });

  describe('in a browser', () => {
    let browser: Browser;

    beforeAll(async () => {
      browser = await launchChromium();
    });

    afterAll(async () => {
      await browser?.close();
    });

    it("sets the organization's zone on the account page, which passes axe-core, and new signups take it", async () => {
      const owner = await newTenant('pro');
      const found = await withPage(browser, async (page) => {
        await page.goto(`${stackInfo().authUrl}/account/login`);
        await signIn(page, owner.user.email);
        await page.getByRole('button', { name: 'Save time zone' }).waitFor();
        const violations = await accessibilityViolations(page);
        await page.getByLabel('Time zone', { exact: true }).selectOption('America/Denver');
        await page.getByRole('button', { name: 'Save time zone' }).click();
        await page.getByText('Time zone: America/Denver.').waitFor();
        return violations;
      });
      expect(found).toEqual([]);
      expect((await create({}, owner.key)).body.timeZone).toBe('America/Denver');
    });

    it('offers the zone on the create account page, which passes axe-core', async () => {
      const found = await withPage(browser, async (page) => {
        await page.goto(`${stackInfo().authUrl}/account/signup`);
        await expect(page.getByLabel('Time zone', { exact: true }).inputValue()).resolves.toBe('UTC');
        return accessibilityViolations(page);
      });
      expect(found).toEqual([]);
    });

    it("shows the public page in the signup's zone, and it passes axe-core", async () => {
      const { signup } = await newSignup(tenant.key, { fields: { eventDate: '2027-12-04T22:00:00.000Z', timeZone: 'Asia/Calcutta' } });
      const found = await withPage(browser, async (page) => {
        await page.goto(`${stackInfo().gatewayUrl}/s/${signup.slug}`);
        await expect(page.locator('p.meta time').textContent()).resolves.toBe('Sun, Dec 5, 2027, 3:30 AM GMT+5:30');
        return accessibilityViolations(page);
      });
      expect(found).toEqual([]);
    });
  });
});
