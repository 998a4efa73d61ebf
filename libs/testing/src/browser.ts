import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Browser, Page } from 'playwright-core';

/**
 * Debian's Chromium, headless. Without the background-networking flags it keeps trying hosts
 * this machine's closed network refuses. playwright-core is loaded on the first launch (it takes
 * a second or more), not by every spec that imports this lib.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** WCAG 2.1 levels A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

let axeSource: string | undefined;

/**
 * What axe-core finds wrong with the page as it is now, one line per rule broken (rule, impact,
 * the elements). axe is evaluated through the browser's debugging protocol, which the pages'
 * strict CSP does not govern, so the pages themselves still run no script.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    const { axe: inPage } = globalThis as unknown as { axe: typeof axe };
    return (await inPage.run({ runOnly: { type: 'tag', values: tags } })).violations;
  }, TAGS);
  return violations.map(({ id, impact, nodes }) => `${id} (${impact}): ${nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
