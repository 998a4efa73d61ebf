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

/** What a person can operate: links, buttons, fields and anything put in the tab order. */
const CONTROLS = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/**
 * In the page (a script, as this lib is typed without the DOM): names a control by its tag, name,
 * link and label; a radio button by its group.
 */
const NAME_OF = `(element) => {
  if (element.type === 'radio') return 'radio group ' + element.name;
  const label = (element.getAttribute('aria-label') ?? element.labels?.[0]?.textContent ?? element.textContent ?? '').trim().replace(/\\s+/g, ' ');
  const href = element.getAttribute('href');
  return element.tagName.toLowerCase() + (element.name ? '[name=' + element.name + ']' : '') + (href ? '[href=' + href + ']' : '') + ' "' + label.slice(0, 60) + '"';
}`;
const VISIBLE_CONTROLS = `[...document.querySelectorAll(${JSON.stringify(CONTROLS)})]
  .filter((element) => element.getClientRects().length > 0 && !element.disabled && !element.closest('[inert]'))
  .map(${NAME_OF})`;
const FOCUSED = `document.activeElement && document.activeElement !== document.body ? (${NAME_OF})(document.activeElement) : null`;

/**
 * The controls of the page that the Tab key never reaches, one line each: every visible, enabled
 * control must take the focus as the page is tabbed through (a group of radio buttons is reached
 * through any of them, as the arrow keys move within it). Our pages have no click handlers of
 * their own, so a control the keyboard reaches is one it can operate. The tab order is a cycle
 * (through the browser's own stop), so two rounds from wherever the focus is cover it.
 */
export async function keyboardUnreachable(page: Page): Promise<string[]> {
  const controls = new Set(await page.evaluate<string[]>(VISIBLE_CONTROLS));
  const reached = new Set<string>();
  for (let press = 0; press < controls.size * 2 + 10; press++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string | null>(FOCUSED);
    if (focused && reached.has(focused) && reached.size >= controls.size) break;
    if (focused) reached.add(focused);
  }
  return [...controls].filter((control) => !reached.has(control)).map((control) => `not reached by the keyboard: ${control}`);
}
