import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ParticipantView, SignupView } from '#libs/contracts';
import { accessibilityViolations, eventually, keyboardUnreachable, startReceiver, verifyWebhook } from '#libs/testing';
import { request } from './api.js';

export interface Account {
  email: string;
  password: string;
}

/** The stack a story runs against: services mode (the e2e stack) or `npm start`. */
export interface StoryStack {
  browser: Browser;
  /** The gateway's origin, where /app lives. */
  origin: string;
  /** The auth-server's origin, where sign-in happens. */
  authUrl: string;
  /** PUBLIC_BASE_URL, for checks through the REST API. */
  baseUrl: string;
  /** A live key of the organization with every scope, for checks through the REST API. */
  liveKey: string;
  owner: Account;
  /** Another user of the organization, with the member role. */
  newMember(): Promise<Account>;
}

/** Signs in on the auth-server's page the dashboard sent the browser to, and waits to be back on the dashboard. */
export async function signInToDashboardPage(page: Page, origin: string, account: Account): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === origin);
}

/**
 * The organizer's story in a browser, step by step: sign in, create a signup with a slot and a
 * question, publish, watch two people register from other browsers, remind them by email,
 * promote one from the waitlist, check one in on a phone, export the CSV, read the numbers, create a webhook
 * and see a delivery, sign out; and a member who
 * can look but not change. Each step asserts what it did; `findings` holds axe's findings on
 * every page the story showed, and the controls there that the Tab key does not reach.
 */
export class DashboardStory {
  readonly findings: Record<string, string[]> = {};
  signup!: SignupView;
  private organizer!: BrowserContext;
  private page!: Page;

  constructor(private readonly stack: StoryStack) {}

  private async check(name: string, page = this.page): Promise<void> {
    this.findings[name] = [...(await accessibilityViolations(page)), ...(await keyboardUnreachable(page))];
  }

  private async api<T>(path: string): Promise<T> {
    return (await request<T>(`${this.stack.baseUrl}${path}`, { key: this.stack.liveKey })).body;
  }

  private participants(): Promise<ParticipantView[]> {
    return this.api<{ data: ParticipantView[] }>(`/signups/${this.signup.id}/participants?limit=100`).then((page) => page.data);
  }

  /** A visitor without a session is sent to sign in, and back to the page asked for; the cookie is opaque and HttpOnly. */
  async signIn(): Promise<void> {
    const { browser, origin, authUrl, owner } = this.stack;
    this.organizer = await browser.newContext({ acceptDownloads: true });
    this.page = await this.organizer.newPage();
    await this.page.goto(`${origin}/app/signups/new`);
    expect(new URL(this.page.url()).origin).toBe(authUrl);
    await this.check('sign-in');
    await signInToDashboardPage(this.page, origin, owner);
    expect(this.page.url()).toBe(`${origin}/app/signups/new`);
    const session = (await this.organizer.cookies(`${origin}/app/`)).find((cookie) => cookie.name === 'app_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/app' });
    expect(session!.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  }

  /** A signup with a required question, a slot of one place and a waitlist, saved with the keyboard alone, then published. */
  async createSignup(): Promise<void> {
    const { page } = this;
    await this.check('new signup');
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
    await this.check('signup (draft)');

    await page.getByRole('textbox', { name: 'Slot', exact: true }).fill('Setup');
    await page.getByLabel('Places').fill('1');
    await page.getByRole('button', { name: 'Add slot' }).click();
    await page.waitForURL(/done=slot-added$/);
    await page.getByRole('link', { name: 'Edit Setup' }).click();
    await page.getByLabel(/^Slot/).fill('Setup crew');
    await this.check('slot');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/done=saved$/);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.waitForURL(/done=published$/);
    await this.check('signup (published)');

    const id = /\/app\/signups\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    this.signup = await this.api<SignupView>(`/signups/${id}`);
    expect(this.signup).toMatchObject({
      title: 'Street <b>party</b>',
      status: 'published',
      timeZone: 'America/New_York',
      eventDate: '2027-06-01T22:00:00.000Z',
      waitlist: expect.objectContaining({ enabled: true, mode: 'offer' }),
      questions: [expect.objectContaining({ label: 'Dietary needs', required: true })],
    });
    await expect(page.locator('#public-link').inputValue()).resolves.toBe(this.signup.publicUrl);
    const qr = await page.request.get(`${this.stack.origin}/app/signups/${id}/qr.png`);
    expect([qr.status(), qr.headers()['content-type']]).toEqual([200, 'image/png']);
  }

  private async register(name: string): Promise<void> {
    const visitor = await this.stack.browser.newContext({ javaScriptEnabled: false });
    const form = await visitor.newPage();
    await form.goto(this.signup.publicUrl);
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Email', { exact: true }).fill(`${name.toLowerCase()}@example.com`);
    await form.getByLabel(/Setup crew/).fill('1');
    await form.getByLabel(/Dietary needs/).fill('None');
    await form.getByRole('button', { name: 'Sign up' }).click();
    await form.waitForLoadState();
    // On the registration's page; a refusal fails here with the page's words.
    if (!new URL(form.url()).pathname.startsWith('/r/cnf_'))
      throw new Error(`${name} was not registered: ${await form.locator('main').textContent()}`);
    await visitor.close();
  }

  /** Two people register from other browsers; the second appears on the open participants page without a reload. */
  async watchRegistrations(): Promise<void> {
    await this.register('Ana');
    await this.page.goto(`${this.stack.origin}/app/signups/${this.signup.id}/participants`);
    await expect(this.page.locator('#participants-rows').textContent()).resolves.toContain('Ana');
    await this.register('Bo');
    await this.page.locator('#participants-rows').getByText('bo@example.com').waitFor({ timeout: 15_000 });
    await this.check('participants');
    // The edit form of a participant: contact, the slot's places and the signup's question.
    await this.page.getByRole('link', { name: 'Edit Ana' }).click();
    await expect(this.page.getByRole('group', { name: 'Time slots' }).count()).resolves.toBe(1);
    await this.check('participant (edit)');
    await this.page.goBack();
  }

  /** From the signup's reminders page: the day's ceilings (a pro organization's), an email pass, the ceiling one lower. */
  async remind(): Promise<void> {
    const { page } = this;
    const { origin } = this.stack;
    await page.goto(`${origin}/app/signups/${this.signup.id}`);
    await page.getByRole('navigation', { name: 'This signup' }).getByRole('link', { name: 'Reminders' }).click();
    await page.waitForURL(`${origin}/app/signups/${this.signup.id}/reminders`);
    await this.check('reminders');
    const emailsLeft = async () => Number(/(\d+) of 5000 emails left today/.exec((await page.locator('main').textContent())!)![1]);
    const before = await emailsLeft();
    await expect(page.locator('main').textContent()).resolves.toMatch(/200 of 200 texts left today, resets at/);
    await expect(page.getByRole('radio', { name: 'Email', exact: true }).isChecked()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.waitForURL(/\/reminders\?done=sent&email=1$/);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Sent 1 email.');
    await expect(page.locator('main').textContent()).resolves.toContain('1 email and 0 texts sent for this signup so far');
    expect(await emailsLeft()).toBeLessThanOrEqual(before - 1);
    await this.check('reminders (sent)');
    await page.goto(`${origin}/app/signups/${this.signup.id}/participants`);
  }

  /** Promoting without a free place says why; once Ana is removed, Bo's offer is taken for him. */
  async promote(): Promise<void> {
    const { page } = this;
    await page.getByRole('button', { name: 'Promote Bo' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/place/i);
    await page.goto(`${this.stack.origin}/app/signups/${this.signup.id}/participants`);
    await page.getByRole('link', { name: 'Remove Ana' }).click();
    await this.check('remove (confirm)');
    await page.getByRole('button', { name: 'Remove Ana' }).click();
    await page.waitForURL(/done=removed$/);
    await page.getByRole('button', { name: 'Promote Bo' }).click();
    await page.waitForURL(/done=promoted$/);
    expect((await this.participants()).find((p) => p.name === 'Bo')!.status).toBe('confirmed');
  }

  /** The check-in view on a 375 px screen: nothing wider than the screen, Bo checked in with one tap. */
  async checkInOnPhone(): Promise<void> {
    const { page } = this;
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${this.stack.origin}/app/signups/${this.signup.id}/check-in`);
    await this.check('check-in (phone)');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'Check in Bo' }).click();
    await page.waitForURL(/done=checked-in/);
    await expect(page.getByRole('button', { name: 'Undo check-in of Bo' }).isVisible()).resolves.toBe(true);
    expect((await this.participants()).find((p) => p.name === 'Bo')!.status).toBe('attended');
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  async exportCsv(): Promise<void> {
    const { page } = this;
    await page.goto(`${this.stack.origin}/app/signups/${this.signup.id}/participants`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\n')[0]).toContain('email');
    expect(csv).toContain('bo@example.com');
    expect(csv).toContain('ana@example.com');
  }

  async readNumbers(): Promise<void> {
    await this.page.goto(`${this.stack.origin}/app/signups/${this.signup.id}/analytics`);
    await expect(this.page.getByRole('img', { name: /registrations/i }).count()).resolves.toBeGreaterThan(0);
    await this.check('numbers');
  }

  /** A member sees the signup with a read-only note and no write buttons; a write posted anyway is 403 and changes nothing. */
  async memberCannotWrite(): Promise<void> {
    const { browser, origin } = this.stack;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${origin}/app/signups/${this.signup.id}`);
      await signInToDashboardPage(page, origin, await this.stack.newMember());
      await expect(page.getByRole('note').textContent()).resolves.toContain('you can look, not change');
      await expect(page.getByRole('button', { name: 'Close registrations' }).count()).resolves.toBe(0);
      await this.check('signup (member)', page);
      const csrf = await page.locator('input[name=csrf]').first().inputValue();
      const refused = await page.request.post(`${origin}/app/signups/${this.signup.id}/close`, { form: { csrf }, maxRedirects: 0 });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).toContain('does not allow this');
      expect((await this.api<SignupView>(`/signups/${this.signup.id}`)).status).toBe('published');
      const reminders = await page.goto(`${origin}/app/signups/${this.signup.id}/reminders`);
      expect(reminders!.status()).toBe(403);
      await expect(page.getByRole('button', { name: 'Send now' }).count()).resolves.toBe(0);
    } finally {
      await context.close();
    }
  }

  /**
   * A webhook endpoint made on the webhooks page: its secret shown once, then a registration's
   * event delivered to the receiver, signed with that secret, and listed among its deliveries.
   */
  async webhook(): Promise<void> {
    const { page } = this;
    const { origin } = this.stack;
    const receiver = await startReceiver();
    try {
      await page.goto(`${origin}/app/signups`);
      await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Webhooks' }).click();
      await this.check('webhooks');
      await page.getByLabel(/^URL/).fill(receiver.url('/story'));
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await this.check('webhook secret');
      await page.getByRole('link', { name: /go to the endpoint/ }).click();
      await this.register('Cy');
      const received = await eventually(() => {
        const found = receiver.received.find(
          (message) => (verifyWebhook(secret, message) as { type: string }).type === 'participant.registered',
        );
        expect(found).toBeDefined();
        return verifyWebhook(secret, found!) as { data: { name?: string } };
      }, 15_000);
      expect(JSON.stringify(received)).toContain('Cy');
      await eventually(async () => {
        await page.reload();
        await expect(page.locator('main').textContent()).resolves.toContain('participant.registered');
      }, 15_000);
      await this.check('webhook');
    } finally {
      await receiver.close();
    }
  }

  /** Signing out ends the session where it is kept: a copy of the cookie opens nothing after. */
  async signOut(): Promise<void> {
    const { origin } = this.stack;
    const copied = (await this.organizer.cookies(`${origin}/app/`)).find((cookie) => cookie.name === 'app_session')!;
    await this.page.goto(`${origin}/app/signups`);
    await this.page.getByRole('button', { name: 'Sign out' }).click();
    await this.page.waitForURL(`${origin}/app/signed-out`);
    const again = await fetch(`${origin}/app/signups`, { headers: { cookie: `app_session=${copied.value}` }, redirect: 'manual' });
    expect([again.status, again.headers.get('location')]).toEqual([303, '/app/signin?return=%2Fapp%2Fsignups']);
    await this.organizer.close();
  }
}
