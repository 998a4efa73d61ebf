import { randomBytes } from 'node:crypto';
import {
  type CloudEvent,
  type CreateItemInput,
  type CreateSignupInput,
  type CreateSlotInput,
  type CursorList,
  EVENT_TYPES,
  type ItemView,
  newPrefixedId,
  type Principal,
  type SignupView,
  type SlotView,
} from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { ALL_SCOPES, type Scope } from '#libs/scopes';
import { createTestStack, type TestStack, type TestStackOptions } from '#libs/testing';
import { signupsServiceApp } from '../index.js';

/** Helpers for the integration tests of this app: callers, signups with slots and items, events, problems. */

export const PUBLIC_BASE_URL = 'https://api.example.test/api/v1';
/**
 * The zone the tests' signups are created with: without one, a signup takes its organization's,
 * which only the auth-server knows (e2e/src/time-zones.e2e-spec.ts), and it does not run here.
 */
export const SIGNUP_TIME_ZONE = 'UTC';
/** What every boot of the app in these tests needs: where its pages are, and the key that seals confirmation tokens. */
export const SIGNUPS_ENV = { PUBLIC_BASE_URL, CONFIRMATION_TOKEN_KEY: randomBytes(32).toString('base64') };
const DAY_MS = 86_400_000;

/** A caller of a fresh organization: sandbox unless live, every scope unless narrowed. */
export function caller(options: { organizationId?: string; livemode?: boolean; scopes?: Scope[] } = {}): Principal {
  return {
    userId: newPrefixedId('usr'),
    organizationId: options.organizationId ?? newPrefixedId('org'),
    tier: 'pro',
    livemode: options.livemode ?? false,
    scopes: options.scopes ?? ALL_SCOPES,
    credentialId: newPrefixedId('key'),
    kind: 'api_key',
  };
}

export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * DAY_MS).toISOString();
}

export { problemOf } from '#libs/testing';

/** The list a cursor of the caller's unfiltered signup list belongs to (to make cursors of it in tests). */
export function signupsList({ organizationId, livemode }: Principal): CursorList {
  return { list: 'signups.list', organizationId, livemode };
}

/** The list a cursor of the caller's unfiltered participant list of a signup belongs to. */
export function participantsList({ organizationId, livemode }: Principal, signupId: string): CursorList {
  return { list: 'signups.participants.list', organizationId, livemode, parentId: signupId };
}

export interface SignupSetup {
  status?: 'draft' | 'published' | 'closed';
  signup?: Partial<CreateSignupInput>;
  slots?: CreateSlotInput[];
  items?: CreateItemInput[];
}

export interface SignupWithContents {
  signup: SignupView;
  slots: SlotView[];
  items: ItemView[];
}

export interface AppHarness {
  stack: TestStack;
  app: RunningApp;
  /** Every event the app published since it started. */
  events: CloudEvent[];
  eventsFor(subject: string, type?: string): CloudEvent[];
  /** A signup of the principal's organization with the given slots and items, then published (default) or closed. */
  signup(principal: Principal, setup?: SignupSetup): Promise<SignupWithContents>;
  close(): Promise<void>;
}

/** Boots the app on a fresh test stack and records every event it publishes. */
export async function startApp(label: string, options: TestStackOptions = {}): Promise<AppHarness> {
  const stack = await createTestStack(label, options);
  const app = await stack.boot(signupsServiceApp, SIGNUPS_ENV);
  const events: CloudEvent[] = [];
  await stack.bus.broadcast(EVENT_TYPES, async (event) => {
    events.push(event);
  });
  return {
    stack,
    app,
    events,
    eventsFor: (subject, type) => events.filter((e) => e.subject === subject && (type === undefined || e.type === type)),
    async signup(principal, setup = {}) {
      let signup = await stack.bus.request('signups.create', {
        principal,
        input: { title: 'Street party', eventDate: daysFromNow(30), timeZone: SIGNUP_TIME_ZONE, ...setup.signup },
      });
      const slots = setup.slots?.length
        ? (await stack.bus.request('signups.slots.create', { principal, signupId: signup.id, input: setup.slots })).data
        : [];
      const items = setup.items?.length
        ? (await stack.bus.request('signups.items.create', { principal, signupId: signup.id, input: setup.items })).data
        : [];
      const status = setup.status ?? 'published';
      if (status !== 'draft') signup = await stack.bus.request('signups.publish', { principal, id: signup.id });
      if (status === 'closed') signup = await stack.bus.request('signups.close', { principal, id: signup.id });
      return { signup, slots, items };
    },
    close: () => stack.close(),
  };
}

/** A registration input with a fresh name and e-mail. */
let people = 0;
export function person(overrides: Partial<{ name: string; email: string; phone: string }> = {}) {
  people += 1;
  return { name: `Person ${people}`, email: `person${people}@example.com`, ...overrides };
}
