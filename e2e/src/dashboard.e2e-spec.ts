import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ParticipantView, SignupView } from '#libs/contracts';
import { accessibilityViolations, launchChromium } from '#libs/testing';
import { addUser, call, newTenant, type Tenant } from './support/api.js';
import { signIn } from './support/oauth.js';
import { stackInfo } from './support/stack-env.js';

/** Signs in on the auth-server's page the dashboard sent the browser to, and waits to be back on the dashboard. */
async function signInToDashboardPage(page: Page, email: string): Promise<void> {
  await signIn(page, email);
  await page.waitForURL((url) => url.origin === stackInfo().gatewayUrl);
}

/**
 * The organizer's story in a browser: sign in, create a signup with a slot and a question,
 * publish, watch two people register from other browsers, remind them by email, promote one from the waitlist, check
 * one in on a phone, export the CSV; and a member who can look but not change (nor send reminders). Every page the
 * story shows is checked with axe.
 */
describe('the organizer dashboard in a browser', () => {
  let browser: Browser;
  let tenant: Tenant;
  let organizer: BrowserContext;
  let page: Page;
  let origin: string;
  /** axe's findings on every page the story visits, by page. */
  const findings: Record<string, string[]> = {};

  const check = async (name: string) => {
    findings[name] = await accessibilityViolations(page);
  };
  const liveParticipants = async (signupId: string) =>
    (
      await call<{ data: ParticipantView[] }>(`/signups/${signupId}/participants?limit=100`, {
        key: (await tenant.newKey({ mode: 'live' })).key,
      })
    ).body.data;

  beforeAll(async () => {
    origin = stackInfo().gatewayUrl;
    browser = await launchChromium();
    tenant = await newTenant('pro');
    organizer = await browser.newContext({ acceptDownloads: true });
    page = await organizer.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a visitor without a session to sign in, and back to the page asked for', async () => {
    await page.goto(`${origin}/app/signups/new`);
    expect(new URL(page.url()).origin).toBe(stackInfo().authUrl);
    await check('sign-in');
    await signInToDashboardPage(page, tenant.user.email);
    expect(page.url()).toBe(`${origin}/app/signups/new`);
    const cookies = await organizer.cookies(`${origin}/app/`);
    const session = cookies.find((cookie) => cookie.name === 'app_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/app' });
    expect(session!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  let signup: SignupView;

  it('creates a signup with a question, a slot and a waitlist, with the keyboard alone', async () => {
    await check('new signup');
    await page.getByLabel('Title').fill('Street <b>party</b>');
    await page.getByLabel('Date and time').fill('2027-06-01T18:00');
    await page.getByLabel('Time zone').selectOption('America/New_York');
    await page.getByRole('checkbox', { name: 'Take names when full' }).check();
    await page.getByLabel('When a place frees up').selectOption('offer');
    await page.locator('#question-0-label').fill('Dietary needs');
    await page.locator('#question-0-required').check();
    await page.getByRole('button', { name: 'Create signup' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/signups\/[0-9a-f-]{36}\?done=created$/);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Signup created');
    await check('signup (draft)');

    await page.getByRole('textbox', { name: 'Slot', exact: true }).fill('Setup crew');
    await page.getByLabel('Places').fill('1');
    await page.getByRole('button', { name: 'Add slot' }).click();
    await page.waitForURL(/done=slot-added$/);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/done=published$/);
    await check('signup (published)');

    const id = /\/app\/signups\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    signup = (await call<SignupView>(`/signups/${id}`, { key: (await tenant.newKey({ mode: 'live' })).key })).body;
    expect(signup).toMatchObject({
      title: 'Street <b>party</b>',
      status: 'published',
      timeZone: 'America/New_York',
      eventDate: '2027-06-01T22:00:00.000Z',
    });
    expect(signup.waitlist).toMatchObject({ enabled: true, mode: 'offer' });
    expect(signup.questions).toEqual([expect.objectContaining({ label: 'Dietary needs', required: true })]);
    await expect(page.locator('#public-link').inputValue()).resolves.toBe(signup.publicUrl);
    const qr = await page.request.get(`${origin}/app/signups/${id}/qr.png`);
    expect([qr.status(), qr.headers()['content-type']]).toEqual([200, 'image/png']);
  });

  const register = async (name: string) => {
    const visitor = await browser.newContext({ javaScriptEnabled: false });
    const form = await visitor.newPage();
    await form.goto(signup.publicUrl);
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Email', { exact: true }).fill(`${name.toLowerCase()}@example.com`);
    await form.getByLabel(/Setup crew/).fill('1');
    await form.getByLabel(/Dietary needs/).fill('None');
    await form.getByRole('button', { name: 'Sign up' }).click();
    await form.waitForURL(/\/r\/cnf_/);
    await visitor.close();
  };

  it('shows registrations as they arrive, without a reload', async () => {
    await register('Ana');
    await page.goto(`${origin}/app/signups/${signup.id}/participants`);
    await expect(page.locator('#participants-rows').textContent()).resolves.toContain('Ana');
    await register('Bo');
    await page.locator('#participants-rows').getByText('bo@example.com').waitFor({ timeout: 15_000 });
    await check('participants');
  });

  it("reminds by email from the signup's reminders page, with what remains of the day's ceilings", async () => {
    await page.goto(`${origin}/app/signups/${signup.id}`);
    await page.getByRole('navigation', { name: 'This signup' }).getByRole('link', { name: 'Reminders' }).click();
    await page.waitForURL(`${origin}/app/signups/${signup.id}/reminders`);
    await check('reminders');
    const emailsLeft = async () => Number(/(\d+) of 5000 emails left today/.exec((await page.locator('main').textContent())!)![1]);
    const before = await emailsLeft();
    await expect(page.locator('main').textContent()).resolves.toMatch(/200 of 200 texts left today, resets at/);
    await expect(page.getByRole('radio', { name: 'Email', exact: true }).isChecked()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.waitForURL(/\/reminders\?done=sent&email=1$/);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Sent 1 email.');
    await expect(page.locator('main').textContent()).resolves.toContain('1 email and 0 texts sent for this signup so far');
    expect(await emailsLeft()).toBeLessThanOrEqual(before - 1);
    await check('reminders (sent)');
    await page.goto(`${origin}/app/signups/${signup.id}/participants`);
  });

  it('promotes from the waitlist once a place is free, and says why it could not before', async () => {
    await page.getByRole('button', { name: 'Promote Bo' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/place/i);
    await page.goto(`${origin}/app/signups/${signup.id}/participants`);
    await page.getByRole('button', { name: 'Remove Ana' }).click();
    await page.waitForURL(/done=removed$/);
    await page.getByRole('button', { name: 'Promote Bo' }).click();
    await page.waitForURL(/done=promoted$/);
    const bo = (await liveParticipants(signup.id)).find((p) => p.name === 'Bo')!;
    expect(bo.status).toBe('confirmed');
  });

  it('checks Bo in on a phone-sized screen, with nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${origin}/app/signups/${signup.id}/check-in`);
    await check('check-in (phone)');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'Check in Bo' }).click();
    await page.waitForURL(/done=checked-in/);
    await expect(page.getByRole('button', { name: 'Undo check-in of Bo' }).isVisible()).resolves.toBe(true);
    expect((await liveParticipants(signup.id)).find((p) => p.name === 'Bo')!.status).toBe('attended');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('exports the participants as CSV', async () => {
    await page.goto(`${origin}/app/signups/${signup.id}/participants`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('email');
    expect(csv).toContain('bo@example.com');
    expect(csv).toContain('ana@example.com');
  });

  it('shows the numbers as charts', async () => {
    await page.goto(`${origin}/app/signups/${signup.id}/analytics`);
    await expect(page.getByRole('img', { name: /registrations/i }).count()).resolves.toBeGreaterThan(0);
    await check('numbers');
  });

  it('signs out: the session cookie opens nothing after, even copied', async () => {
    const copied = (await organizer.cookies(`${origin}/app/`)).find((cookie) => cookie.name === 'app_session')!;
    await page.goto(`${origin}/app/signups`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${origin}/app/signed-out`);
    const again = await fetch(`${origin}/app/signups`, { headers: { cookie: `app_session=${copied.value}` }, redirect: 'manual' });
    expect([again.status, again.headers.get('location')]).toEqual([303, '/app/signin?return=%2Fapp%2Fsignups']);
  });

  it('lets a member look but not change: the write is refused (403) and nothing changes', async () => {
    const member = await addUser(tenant, 'member');
    const context = await browser.newContext();
    const memberPage = await context.newPage();
    await memberPage.goto(`${origin}/app/signups/${signup.id}`);
    await signInToDashboardPage(memberPage, member.email);
    await expect(memberPage.getByRole('note').textContent()).resolves.toContain('you can look, not change');
    await expect(memberPage.getByRole('button', { name: 'Close registrations' }).count()).resolves.toBe(0);
    const csrf = await memberPage.locator('input[name=csrf]').first().inputValue();
    const refused = await memberPage.request.post(`${origin}/app/signups/${signup.id}/close`, { form: { csrf }, maxRedirects: 0 });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toContain('does not allow this');
    expect((await call<SignupView>(`/signups/${signup.id}`, { key: (await tenant.newKey({ mode: 'live' })).key })).body.status).toBe(
      'published',
    );
    page = memberPage;
    await check('signup (member)');
    const reminders = await memberPage.goto(`${origin}/app/signups/${signup.id}/reminders`);
    expect(reminders!.status()).toBe(403);
    await expect(memberPage.getByRole('button', { name: 'Send now' }).count()).resolves.toBe(0);
    await context.close();
  });

  it('finds no accessibility violation on any page of the story', () => {
    expect(findings).toEqual(Object.fromEntries(Object.keys(findings).map((name) => [name, []])));
    expect(Object.keys(findings).length).toBeGreaterThanOrEqual(8);
  });
});
