import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { accessibilityViolations, eventually, launchChromium } from '#libs/testing';
import { registerDeviceClient } from './support/oauth.js';
import { stackInfo } from './support/stack-env.js';

/**
 * A person signs up on the account pages, verifies their address by the link the mailbox shows
 * (MAILBOX_PAGE: the stack has no SMTP server, so mail is stored), and later resets a forgotten
 * password by the emailed link, in Chromium. Every page on the way passes axe-core.
 */
describe('account email in a browser', () => {
  let browser: Browser;
  let page: Page;
  let found: Record<string, string[]>;
  const email = `person-${Date.now()}@example.com`;
  const password = 'a long enough password';
  const newPassword = 'another long enough password';

  beforeAll(async () => {
    browser = await launchChromium();
    // JavaScript on for axe-core, which runs through the debugging protocol; the pages' CSP runs none of their own.
    page = await browser.newPage();
  });

  beforeEach(() => {
    found = {};
  });

  afterAll(async () => {
    await browser?.close();
  });

  const auth = () => stackInfo().authUrl;

  /** The link of the newest email of this kind to the address, from its page in the mailbox. */
  async function linkFromMailbox(kind: string, path: string): Promise<string> {
    const row = await eventually(async () => {
      await page.goto(`${stackInfo().gatewayUrl}/mailbox`);
      const rows = page.getByRole('row').filter({ hasText: email }).filter({ hasText: kind });
      expect(await rows.count()).toBeGreaterThan(0);
      return rows.first();
    });
    await row.getByRole('link').click();
    const href = await page.locator(`a[href^="${auth()}${path}"]`).first().getAttribute('href');
    if (!href) throw new Error(`no ${path} link in the email`);
    return href;
  }

  it('signs up, cannot approve an app yet, verifies the address by the link in the mailbox, and may then create API keys', async () => {
    await page.goto(`${auth()}/account/signup`);
    found.signup = await accessibilityViolations(page);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Organization name', { exact: true }).fill('Browser Choir');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${auth()}/account`);
    await page.getByRole('button', { name: 'Resend the verification email' }).waitFor();
    found.unverified = await accessibilityViolations(page);

    // An app asks for access (the device flow): the consent step waits for the address.
    const device = await client.initiateDeviceAuthorization(await registerDeviceClient(), { scope: 'signups:read' });
    await page.goto(device.verification_uri_complete!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'I have verified my address: continue' }).waitFor();
    await expect(page.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    found.verifyFirst = await accessibilityViolations(page);

    const link = await linkFromMailbox('Account verification', '/account/verify/');
    await page.goto(link);
    found.verify = await accessibilityViolations(page);
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Email address verified');
    found.verified = await accessibilityViolations(page);

    await page.goto(`${auth()}/account/api-keys`);
    await expect(page.getByRole('button', { name: 'Create key' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Resend the verification email' }).count()).resolves.toBe(0);
    expect(found).toEqual({ signup: [], unverified: [], verifyFirst: [], verify: [], verified: [] });
  });

  it('resets a forgotten password by the emailed link, which then signs in', async () => {
    await page.goto(`${auth()}/account`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    found.forgot = await accessibilityViolations(page);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain(`If an account exists for ${email}, we sent it a link`);
    found.sent = await accessibilityViolations(page);

    const link = await linkFromMailbox('Password reset', '/account/reset-password/');
    await page.goto(link);
    found.reset = await accessibilityViolations(page);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL(`${auth()}/account?password=changed`);
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      'Your password was changed, and every other session was signed out.',
    );
    found.changed = await accessibilityViolations(page);

    await page.goto(link);
    await expect(page.getByText('This link is no longer valid').isVisible()).resolves.toBe(true);

    await page.goto(`${auth()}/account`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${auth()}/account`);
    await expect(page.getByText(`Signed in as ${email}.`).isVisible()).resolves.toBe(true);
    expect(found).toEqual({ forgot: [], sent: [], reset: [], changed: [] });
  });
});
