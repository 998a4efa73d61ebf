import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.1 levels A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/**
 * What axe-core finds wrong with the page as it is now, one line per rule broken (rule, impact,
 * the elements). axe is evaluated through the browser's debugging protocol, which the pages'
 * strict CSP does not govern, so the pages themselves still run no script.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const { axe: inPage } = globalThis as unknown as { axe: typeof axe };
    return (await inPage.run({ runOnly: { type: 'tag', values: tags } })).violations;
  }, TAGS);
  return violations.map(({ id, impact, nodes }) => `${id} (${impact}): ${nodes.map((node) => node.target.join(' ')).join(', ')}`);
}
