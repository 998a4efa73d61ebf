import pg from 'pg';
import type { Browser } from 'playwright-core';
import { launchChromium } from '#libs/testing';
import { addUser, call, newTenant, signupBody } from './support/api.js';
import { DashboardStory, signInToDashboardPage } from './support/dashboard-story.js';
import { TENANT_PASSWORD } from './support/oauth.js';
import { stackInfo } from './support/stack-env.js';

/** The organizer's story (support/dashboard-story.ts) in services mode; the all-in-one spec runs it on `npm start`. */
describe('the organizer dashboard in a browser', () => {
  let browser: Browser;
  let story: DashboardStory;

  beforeAll(async () => {
    browser = await launchChromium();
    const tenant = await newTenant('pro');
    const info = stackInfo();
    story = new DashboardStory({
      browser,
      origin: info.gatewayUrl,
      authUrl: info.authUrl,
      baseUrl: info.baseUrl,
      liveKey: (await tenant.newKey({ mode: 'live' })).key,
      owner: { email: tenant.user.email, password: TENANT_PASSWORD },
      newMember: async () => ({ email: (await addUser(tenant, 'member')).email, password: TENANT_PASSWORD }),
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a visitor without a session to sign in, and back to the page asked for', () => story.signIn());
  it('creates a signup with a question, a slot and a waitlist, with the keyboard alone, and publishes it', () => story.createSignup());
  it('shows registrations as they arrive, without a reload', () => story.watchRegistrations());
  it("reminds by email from the signup's reminders page, with what remains of the day's ceilings", () => story.remind());
  it('promotes from the waitlist once a place is free, and says why it could not before', () => story.promote());
  it('checks Bo in on a phone-sized screen, with nothing wider than the screen', () => story.checkInOnPhone());
  it('exports the participants as CSV', () => story.exportCsv());
  it('shows the numbers as charts', () => story.readNumbers());
  it('lets a member look but not change nor remind: the write is refused (403) and nothing changes', () => story.memberCannotWrite());
  it('creates a webhook endpoint, shows its secret once, and lists a delivery the receiver verified', () => story.webhook());
  it('signs out: the session cookie opens nothing after, even copied', () => story.signOut());

  it("switches organization for a user of two, with the password again, and shows the other organization's signups", async () => {
    const [first, second] = await Promise.all([newTenant('pro'), newTenant('free')]);
    const db = new pg.Client({ connectionString: stackInfo().databaseUrl });
    await db.connect();
    try {
      // The admin API makes users, not memberships of existing ones: the second one is written as the account pages would keep it.
      await db.query(`INSERT INTO auth.memberships (user_id, organization_id, role, created_at) VALUES ($1, $2, 'admin', now())`, [
        first.user.id,
        second.organization.id,
      ]);
    } finally {
      await db.end();
    }
    const key = (tenant: typeof first) => tenant.newKey({ mode: 'live' }).then((created) => created.key);
    await call('/signups', { key: await key(first), body: signupBody({ title: 'First org picnic' }) });
    await call('/signups', { key: await key(second), body: signupBody({ title: 'Second org bake sale' }) });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const { gatewayUrl } = stackInfo();
      await page.goto(`${gatewayUrl}/app/signups`);
      await signInToDashboardPage(page, gatewayUrl, { email: first.user.email, password: TENANT_PASSWORD });
      await expect(page.getByRole('link', { name: 'First org picnic' }).count()).resolves.toBe(1);
      const switcher = page.getByLabel('Organization');
      await expect(switcher.locator('option').allTextContents()).resolves.toEqual([first.organization.name, second.organization.name]);
      await switcher.selectOption(second.organization.id);
      await page.getByRole('button', { name: 'Switch' }).click();
      // The password again: the auth-server asks the dashboard for it at every sign-in.
      await signInToDashboardPage(page, gatewayUrl, { email: first.user.email, password: TENANT_PASSWORD });
      await page.waitForURL(`${gatewayUrl}/app/signups`);
      await expect(page.getByRole('link', { name: 'Second org bake sale' }).count()).resolves.toBe(1);
      await expect(page.getByRole('link', { name: 'First org picnic' }).count()).resolves.toBe(0);
      await expect(page.getByLabel('Organization').inputValue()).resolves.toBe(second.organization.id);
    } finally {
      await context.close();
    }
  });

  it('finds no accessibility violation, nor a control the Tab key cannot reach, on any page of the story', () => {
    expect(story.findings).toEqual(Object.fromEntries(Object.keys(story.findings).map((name) => [name, []])));
    expect(Object.keys(story.findings).length).toBeGreaterThanOrEqual(8);
  });
});
