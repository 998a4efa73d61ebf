import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '#libs/testing';
import type { DemoAccount } from './seed.js';

/**
 * `npm run screenshots`: the dashboard's main pages at desktop and phone sizes, in docs/screenshots,
 * taken from the stack `npm start` runs (DASHBOARD_URL, by default http://localhost:3000) as the
 * demo user of its data folder (DATA_DIR). It makes a sample signup there, with two registrations
 * through the public page, so the pages have something to show.
 */
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 375, height: 740 } } as const;

async function signIn(page: Page, origin: string, demo: DemoAccount): Promise<void> {
  await page.goto(`${origin}/app/signups`);
  await page.getByLabel('Email', { exact: true }).fill(demo.email);
  await page.getByLabel('Password', { exact: true }).fill(demo.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/app/signups`);
}

/** A published potluck with a slot, an item, a question and two registrations; its dashboard path. */
async function sampleSignup(page: Page, origin: string): Promise<string> {
  await page.goto(`${origin}/app/signups/new`);
  await page.getByLabel('Title').fill('Neighbourhood potluck');
  await page.getByLabel('Description').fill('Bring a dish to share. Tables and plates are provided.');
  const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('Date and time').fill(`${date}T18:00`);
  await page.getByLabel('Location').fill('Riverside Park, north lawn');
  await page.getByLabel('Most participants').fill('30');
  await page.locator('#question-0-label').fill('Any allergies we should know about?');
  await page.getByRole('button', { name: 'Create signup' }).click();
  await page.waitForURL(/done=created$/);
  const path = new URL(page.url()).pathname;
  for (const [slot, start, end] of [
    ['Setup crew', '17:00', '18:00'],
    ['Clean-up crew', '20:00', '21:00'],
  ] as const) {
    await page.getByRole('textbox', { name: 'Slot', exact: true }).fill(slot);
    await page.getByLabel('Starts').fill(`${date}T${start}`);
    await page.getByLabel('Ends').fill(`${date}T${end}`);
    await page.getByLabel('Places').fill('4');
    await page.getByRole('button', { name: 'Add slot' }).click();
    await page.waitForURL(/done=slot-added$/);
  }
  for (const [item, count] of [
    ['Salad', '3'],
    ['Dessert', '3'],
  ] as const) {
    await page.getByRole('textbox', { name: 'Item', exact: true }).fill(item);
    await page.getByLabel('How many').fill(count);
    await page.getByRole('button', { name: 'Add item' }).click();
    await page.waitForURL(/done=item-added$/);
  }
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.waitForURL(/done=published$/);
  const link = await page.locator('#public-link').inputValue();
  for (const [name, choice, allergies] of [
    ['Ana Lima', /Setup crew/, 'None'],
    ['Bo Chen', /Salad/, 'Peanuts'],
  ] as const) {
    const visitor = await page.context().browser()!.newPage();
    await visitor.goto(link);
    await visitor.getByLabel('Name', { exact: true }).fill(name);
    await visitor.getByLabel('Email', { exact: true }).fill(`${name.split(' ')[0]!.toLowerCase()}@example.com`);
    await visitor.getByLabel(choice).fill('1');
    await visitor.getByLabel(/allergies/).fill(allergies);
    await visitor.getByRole('button', { name: 'Sign up' }).click();
    await visitor.waitForURL(/\/r\/cnf_/);
    await visitor.close();
  }
  return path;
}

async function main(): Promise<void> {
  const origin = process.env.DASHBOARD_URL ?? 'http://localhost:3000';
  const demo = JSON.parse(readFileSync(join(resolve(process.env.DATA_DIR ?? 'data'), 'demo.json'), 'utf8')) as DemoAccount;
  const out = resolve('docs/screenshots');
  mkdirSync(out, { recursive: true });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: SIZES.desktop });
    await signIn(page, origin, demo);
    const signup = await sampleSignup(page, origin);
    const pages = {
      signups: '/app/signups',
      signup,
      participants: `${signup}/participants`,
      'check-in': `${signup}/check-in`,
      numbers: `${signup}/analytics`,
      webhooks: '/app/webhooks',
      reminders: `${signup}/reminders`,
      'new-signup': '/app/signups/new',
    };
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      for (const [name, path] of Object.entries(pages)) {
        await page.goto(`${origin}${path}`);
        await page.screenshot({ path: join(out, `${name}-${size}.png`), fullPage: size === 'desktop' });
      }
    }
    process.stdout.write(`Screenshots written to ${out}\n`);
  } finally {
    await browser.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`screenshots failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
