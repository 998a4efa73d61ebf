import type { Browser } from 'playwright-core';
import { launchChromium } from '#libs/testing';
import { addUser, newTenant } from './support/api.js';
import { DashboardStory } from './support/dashboard-story.js';
import { TENANT_PASSWORD } from './support/oauth.js';
import { stackInfo } from './support/stack-env.js';

/** The organizer's story (support/dashboard-story.ts) in services mode; the all-in-one spec runs it on `npm start`. */
describe('the organizer dashboard in a browser', () => {
  let browser: Browser;
  let story: DashboardStory;

  beforeAll(async () => {
    browser = await launchChromium();
    const tenant = await newTenant('pro');
    const info = stackInfo();
    story = new DashboardStory({
      browser,
      origin: info.gatewayUrl,
      authUrl: info.authUrl,
      baseUrl: info.baseUrl,
      liveKey: (await tenant.newKey({ mode: 'live' })).key,
      owner: { email: tenant.user.email, password: TENANT_PASSWORD },
      newMember: async () => ({ email: (await addUser(tenant, 'member')).email, password: TENANT_PASSWORD }),
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a visitor without a session to sign in, and back to the page asked for', () => story.signIn());
  it('creates a signup with a question, a slot and a waitlist, with the keyboard alone, and publishes it', () => story.createSignup());
  it('shows registrations as they arrive, without a reload', () => story.watchRegistrations());
  it('promotes from the waitlist once a place is free, and says why it could not before', () => story.promote());
  it('checks Bo in on a phone-sized screen, with nothing wider than the screen', () => story.checkInOnPhone());
  it('exports the participants as CSV', () => story.exportCsv());
  it('shows the numbers as charts', () => story.readNumbers());
  it('lets a member look but not change: the write is refused (403) and nothing changes', () => story.memberCannotWrite());
  it('signs out: the session cookie opens nothing after, even copied', () => story.signOut());

  it('finds no accessibility violation on any page of the story', () => {
    expect(story.findings).toEqual(Object.fromEntries(Object.keys(story.findings).map((name) => [name, []])));
    expect(Object.keys(story.findings).length).toBeGreaterThanOrEqual(8);
  });
});
