import type { Browser, Page } from 'playwright-core';
import { accessibilityViolations, launchChromium } from '#libs/testing';
import { entry, IDS, messageContext, ORIGIN, TOKEN } from '../testing/message-context.js';
import { composeParticipantMessage } from './compose.js';
import { MESSAGE_KINDS, type MessageKind } from './message-kind.js';

const offered = entry({
  state: 'offered',
  position: null,
  offeredAt: '2026-11-30T15:30:00.000Z',
  offerExpiresAt: '2026-12-01T15:30:00.000Z',
});
const link = `${ORIGIN}/r/${TOKEN}#waitlist-${IDS.entry}`;
const CONTEXTS: Partial<Record<MessageKind, ReturnType<typeof messageContext>>> = {
  waitlisted: messageContext({ participant: { status: 'waitlisted', selections: [], waitlist: [entry()] } }),
  offer: messageContext({
    participant: { status: 'offered', selections: [], waitlist: [offered] },
    offers: [{ entryId: IDS.entry, type: 'slot', targetId: IDS.cleanup, acceptUrl: link, declineUrl: link }],
  }),
  cancellation: messageContext({ participant: { status: 'cancelled' } }),
};

/** The HTML part of every kind, in Chromium, against WCAG 2.1 AA and axe's best practices (axe runs in the page: the part has no script of its own). */
describe('the HTML part in a browser', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it.each(MESSAGE_KINDS)('of the %s message breaks no accessibility rule, and its links are links', async (kind) => {
    const context =
      CONTEXTS[kind] ?? messageContext({ participant: { waitlist: [entry()] }, signup: { title: '<b>Winter</b> potluck \u202Eפוטלאק' } });
    const { html, subject } = composeParticipantMessage(context, 'Friends of the Park', kind);
    await page.setContent(html);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(await page.title()).toBe(subject);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.locator('b, script').count()).toBe(0);
    const links = await page.getByRole('link').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links.length).toBeGreaterThan(0);
    for (const [text, href] of links) {
      expect(text).toMatch(/^(Change|Accept|Decline|View)/);
      expect(href).toMatch(/^https:\/\/signups\.example\.test\/(r|s)\//);
    }
  });
});
