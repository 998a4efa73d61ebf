import type { Browser, Page } from 'playwright-core';
import type { ParticipantView, RegistrationResultView, WaitlistSettingsInput } from '#libs/contracts';
import { accessibilityViolations, launchChromium } from '#libs/testing';
import { STYLESHEET_PATH } from '#libs/web';
import { call, newTenant, type Tenant } from './support/api.js';
import { newSignup, person, type SignupFixture } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

/** The computed font of the page's body: the browser's default (a serif) unless the stylesheet applied. */
const bodyFont = (on: Page): Promise<string> => on.evaluate<string>('getComputedStyle(document.body).fontFamily');

/** The public signup page and the manage page, driven in a real browser with JavaScript turned off: nothing needs it. */
describe('public pages in a browser', () => {
  let browser: Browser;
  let page: Page;
  let fixture: SignupFixture;
  let tenant: Tenant;
  let origin: string;

  beforeAll(async () => {
    origin = stackInfo().gatewayUrl;
    browser = await launchChromium();
    tenant = await newTenant('pro');
    fixture = await newSignup(tenant.key, {
      fields: { title: 'Street <b>party</b>', location: 'Main Street', description: 'Bring chairs' },
      slots: [{ title: 'Setup crew', capacity: 3 }],
      items: [{ name: 'Lemonade', quantityNeeded: 2 }],
    });
  });

  beforeEach(async () => {
    page = await browser.newPage({ javaScriptEnabled: false });
  });

  afterEach(async () => {
    await page.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const slotRemaining = () => page.locator(`#slot-${fixture.slots[0]!.id}-remaining`);
  const manageUrlPattern = () => new RegExp(`^${origin.replace(/[.]/g, '\\.')}/r/cnf_[0-9A-Za-z]{32}$`);
  const participantCount = async () =>
    (await call<{ data: unknown[] }>(`/signups/${fixture.signup.id}/participants?limit=100`, { key: tenant.key })).body.data.length;

  it('runs no script in its pages', async () => {
    await page.goto(`data:text/html,<title>off</title><script>document.title = 'on'</script>`);
    await expect(page.title()).resolves.toBe('off');
  });

  it('signs up, lands on the manage page with the link to keep, reloads without signing up twice, and cancels by that link', async () => {
    const response = await page.goto(`${origin}/s/${fixture.signup.slug}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Street <b>party</b>');
    await expect(slotRemaining().textContent()).resolves.toBe('3 of 3 places left');
    const before = await participantCount();

    await page.getByLabel('Name', { exact: true }).fill('Ana Lima');
    await page.getByLabel('Email', { exact: true }).fill('ana@example.com');
    await page.getByLabel('Setup crew').fill('1');
    await page.getByRole('button', { name: 'Sign up' }).click();

    // Post/Redirect/Get: the browser is on the manage page of the new registration.
    await page.waitForURL(/\/r\/cnf_[0-9A-Za-z]{32}\?registered=1$/);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration');
    const confirmation = page.getByRole('status').filter({ has: page.getByRole('heading', { name: "You're signed up — keep this link" }) });
    await expect(confirmation.isVisible()).resolves.toBe(true);
    await expect(confirmation.getByRole('listitem').filter({ hasText: 'Setup crew' }).textContent()).resolves.toBe('Setup crew: 1 place');
    const manageUrl = (await confirmation.getByRole('link', { name: /\/r\/cnf_/ }).getAttribute('href'))!;
    expect(manageUrl).toMatch(manageUrlPattern());
    expect(page.url()).toBe(`${manageUrl}?registered=1`);

    const reloaded = await page.reload();
    expect(reloaded?.request().method()).toBe('GET');
    expect(reloaded?.status()).toBe(200);
    expect(await participantCount()).toBe(before + 1);

    await page.goto(`${origin}/s/${fixture.signup.slug}`);
    await expect(slotRemaining().textContent()).resolves.toBe('2 of 3 places left');

    const managed = await page.goto(manageUrl);
    expect(managed?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration');
    await expect(page.getByText('keep this link').count()).resolves.toBe(0);
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Ana Lima');
    await expect(page.getByLabel('Setup crew').inputValue()).resolves.toBe('1');
    await page.getByRole('button', { name: 'Cancel registration' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration is canceled');

    await page.goto(`${origin}/s/${fixture.signup.slug}`);
    await expect(slotRemaining().textContent()).resolves.toBe('3 of 3 places left');
    expect((await page.goto(manageUrl))?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration is canceled');
    expect(await participantCount()).toBe(before);
  });

  it('changes a registration on the manage page, and a reload saves nothing again', async () => {
    await page.goto(`${origin}/s/${fixture.signup.slug}`);
    await page.getByLabel('Name', { exact: true }).fill('Bo');
    await page.getByLabel('Email', { exact: true }).fill('bo@example.com');
    await page.getByLabel('Lemonade').fill('1');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.waitForURL(/\?registered=1$/);
    const manageUrl = (await page.getByRole('link', { name: /\/r\/cnf_/ }).getAttribute('href'))!;

    await page.goto(manageUrl);
    await page.getByLabel('Name', { exact: true }).fill('Bo Jensen');
    await page.getByLabel('Lemonade').fill('2');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${manageUrl}?saved=1`);
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Your changes are saved.');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Bo Jensen');
    await expect(page.getByRole('listitem').filter({ hasText: 'Lemonade' }).first().textContent()).resolves.toBe('Lemonade: 2');
    expect((await page.reload())?.request().method()).toBe('GET');

    await page.getByRole('button', { name: 'Cancel registration' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration is canceled');
  });

  it('keeps what was entered and explains a problem next to the field', async () => {
    await page.goto(`${origin}/s/${fixture.signup.slug}`);
    await page.getByLabel('Name', { exact: true }).fill('Cy');
    // "a@b" passes the browser's own email check but not the server's.
    await page.getByLabel('Email', { exact: true }).fill('a@b');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.locator('#email-error').textContent()).resolves.toBe('Invalid email');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Cy');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Email: Invalid email');
  });

  it('passes axe-core (WCAG 2.1 A and AA, best practices) on every page a participant sees', async () => {
    const checked = await browser.newPage();
    try {
      const found: Record<string, string[]> = {};
      await checked.goto(`${origin}/s/${fixture.signup.slug}`);
      found.form = await accessibilityViolations(checked);
      await checked.getByLabel('Name', { exact: true }).fill('Di');
      await checked.getByLabel('Email', { exact: true }).fill('a@b');
      await checked.getByRole('button', { name: 'Sign up' }).click();
      await checked.locator('#email-error').waitFor();
      found.formWithErrors = await accessibilityViolations(checked);
      await checked.getByLabel('Email', { exact: true }).fill('di@example.com');
      await checked.getByLabel('Lemonade').fill('1');
      await checked.getByRole('button', { name: 'Sign up' }).click();
      await checked.waitForURL(/\?registered=1$/);
      found.registered = await accessibilityViolations(checked);
      await checked.getByRole('button', { name: 'Cancel registration' }).click();
      await checked.getByRole('heading', { name: 'Your registration is canceled' }).waitFor();
      found.canceled = await accessibilityViolations(checked);
      await checked.goto(`${origin}/s/no-such-signup`);
      found.notFound = await accessibilityViolations(checked);
      expect(found).toEqual({ form: [], formWithErrors: [], registered: [], canceled: [], notFound: [] });
    } finally {
      await checked.close();
    }
  });

  it('serves the Integrating guide, linked from the OpenAPI document, as a page that passes axe-core', async () => {
    const doc = (await call<{ info: { description: string }; externalDocs: { url: string } }>('/openapi.json')).body;
    const guideUrl = `${origin}/api/v1/docs/integrating`;
    expect(doc.externalDocs.url).toBe(guideUrl);
    expect(doc.info.description).toContain('[the Integrating guide](/api/v1/docs/integrating)');
    const res = await fetch(guideUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const checked = await browser.newPage();
    try {
      await checked.goto(guideUrl);
      await expect(checked.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Integrating');
      await expect(checked.getByRole('heading', { name: 'Retrying safely' }).count()).resolves.toBe(1);
      expect(await accessibilityViolations(checked)).toEqual([]);
    } finally {
      await checked.close();
    }
  });

  describe('a signup with questions', () => {
    let asking: SignupFixture;
    const QUESTIONS = [
      { type: 'single_choice', label: 'T-shirt size', required: true, options: ['S', 'M', 'L'] },
      { type: 'multiple_choice', label: 'Days', required: true, options: ['Sat', 'Sun'] },
      { type: 'yes_no', label: 'Vegetarian?' },
      { type: 'number', label: 'Guests', min: 0, max: 3 },
      { type: 'long_text', label: 'Anything else?' },
    ];

    beforeAll(async () => {
      asking = await newSignup(tenant.key, { fields: { title: 'Picnic', questions: QUESTIONS } });
    });

    /** Fills the form but the days (a required group of boxes, which the browser cannot require). */
    async function fillAllButDays(on: Page, email: string) {
      await on.goto(`${origin}/s/${asking.signup.slug}`);
      await on.getByLabel('Name', { exact: true }).fill('Eve');
      await on.getByLabel('Email', { exact: true }).fill(email);
      await on.getByRole('radio', { name: 'M' }).check();
      await on.getByRole('group', { name: 'Vegetarian?' }).getByRole('radio', { name: 'Yes' }).check();
      await on.getByLabel('Guests').fill('2');
      await on.getByLabel('Anything else?').fill('Hello');
      await on.getByRole('button', { name: 'Sign up' }).click();
    }

    it('asks each question, explains a missing answer beside it keeping the others, and edits the answers on the manage page', async () => {
      const [size, days, vegetarian, guests] = asking.signup.questions.map((q) => q.id);
      await fillAllButDays(page, 'eve@example.com');
      await expect(page.locator(`#q-${days}-error`).textContent()).resolves.toBe('Required');
      await expect(page.getByRole('alert').textContent()).resolves.toContain('Days: Required');
      await expect(page.getByRole('radio', { name: 'M' }).isChecked()).resolves.toBe(true);
      await expect(page.getByLabel('Guests').inputValue()).resolves.toBe('2');
      await expect(page.getByLabel('Anything else?').inputValue()).resolves.toBe('Hello');

      await page.getByRole('checkbox', { name: 'Sun' }).check();
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL(/\?registered=1$/);
      await expect(page.locator('dd').filter({ hasText: 'Sun' }).count()).resolves.toBe(1);

      await page.getByRole('checkbox', { name: 'Sat' }).check();
      await page.getByLabel('Guests').fill('3');
      await page.getByLabel('Anything else?').fill('');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.waitForURL(/\?saved=1$/);
      const { data } = (await call<{ data: ParticipantView[] }>(`/signups/${asking.signup.id}/participants`, { key: tenant.key })).body;
      expect(data.find((p) => p.email === 'eve@example.com')?.answers).toEqual({
        [size!]: 'M',
        [days!]: ['Sat', 'Sun'],
        [vegetarian!]: true,
        [guests!]: 3,
      });
    });

    it('passes axe-core on the form with questions, with an answer missing, and on the manage page with answers', async () => {
      const checked = await browser.newPage();
      try {
        const found: Record<string, string[]> = {};
        await checked.goto(`${origin}/s/${asking.signup.slug}`);
        found.form = await accessibilityViolations(checked);
        await fillAllButDays(checked, 'fay@example.com');
        await checked.locator('.error').first().waitFor();
        found.formWithErrors = await accessibilityViolations(checked);
        await checked.getByRole('checkbox', { name: 'Sat' }).check();
        await checked.getByRole('button', { name: 'Sign up' }).click();
        await checked.waitForURL(/\?registered=1$/);
        found.manage = await accessibilityViolations(checked);
        expect(found).toEqual({ form: [], formWithErrors: [], manage: [] });
      } finally {
        await checked.close();
      }
    });
  });

  describe('with the waitlist on', () => {
    /** A signup "Cleanup" with the waitlist on, a slot "Setup" of one place (taken by someone over REST) and an item "Lemonade". */
    const fullSetup = async (waitlist: WaitlistSettingsInput) => {
      const full = await newSignup(tenant.key, {
        fields: { title: 'Cleanup', waitlist: { enabled: true, ...waitlist } },
        slots: [{ title: 'Setup', capacity: 1 }],
        items: [{ name: 'Lemonade', quantityNeeded: 5 }],
      });
      const holder = await call<RegistrationResultView>(`/signups/${full.signup.id}/participants`, {
        body: person([{ type: 'slot', id: full.slots[0]!.id }]),
      });
      return { ...full, holderToken: holder.body.confirmationToken! };
    };

    /** Signs up on the page with the quantities given by label, and answers the link to keep. */
    const signUpOnPage = async (slug: string, quantities: Record<string, string>): Promise<string> => {
      await page.goto(`${origin}/s/${slug}`);
      await page.getByLabel('Name', { exact: true }).fill('Wai Ting');
      await page.getByLabel('Email', { exact: true }).fill(`wai.${Date.now()}@example.com`);
      for (const [label, quantity] of Object.entries(quantities)) await page.getByLabel(label).fill(quantity);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.waitForURL(/\?registered=1$/);
      return (await page.getByRole('link', { name: /\/r\/cnf_/ }).getAttribute('href'))!;
    };

    /** What axe finds on the page at `url` (with scripts on, for axe only). */
    const axeAt = async (url: string): Promise<string[]> => {
      const checked = await browser.newPage();
      try {
        await checked.goto(url);
        return await accessibilityViolations(checked);
      } finally {
        await checked.close();
      }
    };

    const status = () => page.locator('#registration-status').textContent();

    it('offers to join the waitlist of a full slot, shows the position after registering, and leaves the line', async () => {
      const { signup } = await fullSetup({ mode: 'auto' });
      await signUpOnPage(signup.slug, { Setup: '1' });
      await page.goto(`${origin}/s/${signup.slug}`);
      const setup = page.getByLabel('Setup: join the waitlist');
      await expect(setup.isEnabled()).resolves.toBe(true);
      const form = await axeAt(`${origin}/s/${signup.slug}`);
      const manageUrl = await signUpOnPage(signup.slug, { Setup: '1' });

      const confirmation = page
        .getByRole('status')
        .filter({ has: page.getByRole('heading', { name: "You're on the waitlist — keep this link" }) });
      await expect(confirmation.getByRole('listitem').textContent()).resolves.toBe('You are number 2 on the waitlist for Setup.');
      const registered = await axeAt(page.url());
      await page.goto(manageUrl);
      await expect(status()).resolves.toBe('Status: On the waitlist: you are given a place when one frees up, in turn.');
      await expect(page.getByText('You are number 2 on the waitlist for Setup.').isVisible()).resolves.toBe(true);
      await expect(page.getByText('Leaving cancels your registration.').isVisible()).resolves.toBe(true);
      const waitlisted = await axeAt(manageUrl);

      await page.getByRole('button', { name: 'Leave the waitlist' }).click();
      await page.waitForURL(`${manageUrl}?waitlist=leave`);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration is canceled');
      await expect(page.getByRole('status').textContent()).resolves.toContain('You left the waitlist.');
      expect((await page.goto(manageUrl))?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration is canceled');
      const canceled = await axeAt(manageUrl);
      expect({ form, registered, waitlisted, canceled }).toEqual({ form: [], registered: [], waitlisted: [], canceled: [] });
    });

    it('shows the offer of a freed place with the time it is held until, and accepting it confirms the place', async () => {
      const { signup, holderToken } = await fullSetup({ mode: 'offer', offerMinutes: 60 });
      const manageUrl = await signUpOnPage(signup.slug, { Setup: '1' });
      expect((await call(`/registrations/${holderToken}`, { method: 'DELETE' })).status).toBe(200);

      await page.goto(manageUrl);
      await expect(status()).resolves.toBe(
        'Status: A place is offered to you: accept it before the offer ends, or it passes to the next in line.',
      );
      await expect(page.getByText(/^A place is offered to you for Setup, held until .+ UTC\.$/).isVisible()).resolves.toBe(true);
      const offered = await axeAt(manageUrl);
      await page.getByRole('button', { name: 'Accept' }).click();
      await page.waitForURL(`${manageUrl}?waitlist=accept`);
      await expect(page.getByRole('status').first().textContent()).resolves.toContain('You accepted the place: it is yours.');
      await expect(status()).resolves.toBe('Status: Confirmed: you are signed up.');
      await expect(page.getByRole('listitem').filter({ hasText: 'Setup' }).first().textContent()).resolves.toBe('Setup: 1 place');
      await expect(page.getByRole('button', { name: 'Accept' }).count()).resolves.toBe(0);
      const confirmed = await axeAt(manageUrl);
      expect({ offered, confirmed }).toEqual({ offered: [], confirmed: [] });
    });

    it('declines an offer, keeping what else the registration holds, and frees the place', async () => {
      const { signup, slots, holderToken } = await fullSetup({ mode: 'offer', offerMinutes: 60 });
      const manageUrl = await signUpOnPage(signup.slug, { Setup: '1', Lemonade: '2' });
      expect((await call(`/registrations/${holderToken}`, { method: 'DELETE' })).status).toBe(200);

      await page.goto(manageUrl);
      await page.getByRole('button', { name: 'Decline' }).click();
      await page.waitForURL(`${manageUrl}?waitlist=leave`);
      await expect(page.getByRole('status').first().textContent()).resolves.toContain('You left the waitlist.');
      await expect(status()).resolves.toBe('Status: Confirmed: you are signed up.');
      await expect(page.getByRole('heading', { name: 'Waitlist' }).count()).resolves.toBe(0);
      await expect(page.getByRole('listitem').filter({ hasText: 'Lemonade' }).first().textContent()).resolves.toBe('Lemonade: 2');
      await page.goto(`${origin}/s/${signup.slug}`);
      await expect(page.locator(`#slot-${slots[0]!.id}-remaining`).textContent()).resolves.toBe('1 of 1 places left');
    });
  });

  it('styles its pages with the shared stylesheet, which the CSP lets load', async () => {
    const styled = await browser.newPage();
    try {
      const stylesheet = styled.waitForResponse((res) => res.url() === `${origin}${STYLESHEET_PATH}`);
      await styled.goto(`${origin}/s/${fixture.signup.slug}`);
      expect((await stylesheet).status()).toBe(200);
      expect(await bodyFont(styled)).toMatch(/^system-ui,/);
      await expect(styled.getByRole('link', { name: 'Skip to content' }).count()).resolves.toBe(1);
      await expect(styled.getByRole('banner').getByText('Signups', { exact: true }).isVisible()).resolves.toBe(true);
    } finally {
      await styled.close();
    }
  });

  it('answers an unknown signup and an unknown token with a not found page', async () => {
    expect((await page.goto(`${origin}/s/no-such-signup`))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Not found');
    expect((await page.goto(`${origin}/r/cnf_${'0'.repeat(32)}`))?.status()).toBe(404);
  });
});

/** The auth-server's account pages, in the same look: each passes axe-core, and the stylesheet applies. */
describe('account pages in a browser', () => {
  let browser: Browser;
  let page: Page;
  const auth = () => stackInfo().authUrl;

  beforeAll(async () => {
    browser = await launchChromium();
    // JavaScript on for axe-core, which runs through the debugging protocol; the pages' CSP runs none of their own.
    page = await browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('passes axe-core on the signup, sign-in, account, API keys and connected apps pages, styled by the stylesheet', async () => {
    const found: Record<string, string[]> = {};
    await page.goto(`${auth()}/account/signup`);
    expect(await bodyFont(page)).toMatch(/^system-ui,/);
    found.signup = await accessibilityViolations(page);
    await page.getByLabel('Email', { exact: true }).fill(`look-${Date.now()}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill('a long enough password');
    await page.getByLabel('Organization name', { exact: true }).fill('Look Choir');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${auth()}/account`);
    found.overview = await accessibilityViolations(page);
    const nav = page.getByRole('navigation', { name: 'Account' });
    await expect(nav.getByRole('link', { name: 'Account' }).getAttribute('aria-current')).resolves.toBe('page');
    await nav.getByRole('link', { name: 'API keys' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('API keys');
    found.apiKeys = await accessibilityViolations(page);
    await nav.getByRole('link', { name: 'Connected apps' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Connected apps');
    found.connectedApps = await accessibilityViolations(page);
    await nav.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${auth()}/account/login`);
    expect(await bodyFont(page)).toMatch(/^system-ui,/);
    found.login = await accessibilityViolations(page);
    expect(found).toEqual({ signup: [], overview: [], apiKeys: [], connectedApps: [], login: [] });
  });
});
