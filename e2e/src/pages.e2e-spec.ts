import { chromium, type Browser, type Page } from 'playwright-core';
import { newTenant } from './support/api.js';
import { newSignup, type SignupFixture } from './support/signups.js';
import { stackInfo } from './support/stack-env.js';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The public signup page and the manage page, driven in a real browser without JavaScript in the pages. */
describe('public pages in a browser', () => {
  let browser: Browser;
  let page: Page;
  let fixture: SignupFixture;
  let origin: string;

  beforeAll(async () => {
    origin = stackInfo().gatewayUrl;
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    const tenant = await newTenant('pro');
    fixture = await newSignup(tenant.key, {
      fields: { title: 'Street <b>party</b>', location: 'Main Street', description: 'Bring chairs' },
      slots: [{ title: 'Setup crew', capacity: 3 }],
      items: [{ name: 'Lemonade', quantityNeeded: 2 }],
    });
  });

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page.close();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const slotRemaining = () => page.locator(`#slot-${fixture.slots[0]!.id}-remaining`);

  it('signs up, shows the manage link, and cancelling by that link frees the place', async () => {
    const response = await page.goto(`${origin}/s/${fixture.signup.slug}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Street <b>party</b>');
    await expect(slotRemaining().textContent()).resolves.toBe('3 of 3 places left');

    await page.getByLabel('Name', { exact: true }).fill('Ana Lima');
    await page.getByLabel('Email', { exact: true }).fill('ana@example.com');
    await page.getByLabel('Setup crew').fill('1');
    await page.getByRole('button', { name: 'Sign up' }).click();

    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe("You're signed up");
    await expect(page.getByRole('listitem').filter({ hasText: 'Setup crew' }).textContent()).resolves.toBe('Setup crew: 1 place');
    await expect(page.getByText('Keep this link').first().isVisible()).resolves.toBe(true);
    const manage = page.getByRole('link', { name: /\/r\/cnf_/ });
    const manageUrl = (await manage.getAttribute('href'))!;
    expect(manageUrl).toMatch(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/r/cnf_[0-9A-Za-z]{32}$`));

    await page.goto(`${origin}/s/${fixture.signup.slug}`);
    await expect(slotRemaining().textContent()).resolves.toBe('2 of 3 places left');

    const managed = await page.goto(manageUrl);
    expect(managed?.headers()['referrer-policy']).toBe('no-referrer');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Ana Lima');
    await expect(page.getByLabel('Setup crew').inputValue()).resolves.toBe('1');
    await page.getByRole('button', { name: 'Cancel registration' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your registration is canceled');

    await page.goto(`${origin}/s/${fixture.signup.slug}`);
    await expect(slotRemaining().textContent()).resolves.toBe('3 of 3 places left');
    expect((await page.goto(manageUrl))?.status()).toBe(404);
  });

  it('changes a registration on the manage page', async () => {
    await page.goto(`${origin}/s/${fixture.signup.slug}`);
    await page.getByLabel('Name', { exact: true }).fill('Bo');
    await page.getByLabel('Email', { exact: true }).fill('bo@example.com');
    await page.getByLabel('Lemonade').fill('1');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const manageUrl = (await page.getByRole('link', { name: /\/r\/cnf_/ }).getAttribute('href'))!;

    await page.goto(manageUrl);
    await page.getByLabel('Name', { exact: true }).fill('Bo Jensen');
    await page.getByLabel('Lemonade').fill('2');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Your changes are saved.');
    await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Bo Jensen');
    await expect(page.getByRole('listitem').filter({ hasText: 'Lemonade' }).first().textContent()).resolves.toBe('Lemonade: 2');

    await page.getByRole('button', { name: 'Cancel registration' }).click();
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

  it('answers an unknown signup and an unknown token with a not found page', async () => {
    expect((await page.goto(`${origin}/s/no-such-signup`))?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Not found');
    expect((await page.goto(`${origin}/r/cnf_${'0'.repeat(32)}`))?.status()).toBe(404);
  });
});
