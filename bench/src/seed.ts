import { randomUUID } from 'node:crypto';
import type { Platform } from './platform.js';

interface Signup {
  id: string;
  slots?: { id: string; taken: number; capacity: number }[];
}
interface Created<T> {
  data: T[];
}

export interface Tenant {
  organizationId: string;
  /** A sandbox API key with every scope. */
  key: string;
}

/** What the scenarios run against. */
export interface Fixtures {
  tenant: Tenant;
  /** A published signup with 5 slots and 5 items: the single read. */
  readSignupId: string;
  /** A published signup with 200 slots of ample capacity: the registrations. */
  registerSignupId: string;
  registerSlotIds: string[];
}

const EVENT_DATE = '2027-06-01T18:00:00.000Z';
/** Sheets in the organization besides the read and registration ones, so a page of 20 is full. */
const LISTED_SIGNUPS = 20;
export const REGISTRATION_SLOTS = 200;
const SLOTS_PER_CALL = 100;
const AMPLE_CAPACITY = 100_000;

let people = 0;

/** A registration body for a fresh person. */
export function registration(selections: { type: 'slot'; id: string; quantity?: number }[]): string {
  people += 1;
  return JSON.stringify({ name: `Bench person ${people}`, email: `bench${people}@example.com`, selections });
}

export async function newTenant(platform: Platform, tier: 'free' | 'pro' | 'org', name: string): Promise<Tenant> {
  const organization = await platform.admin<{ id: string }>('organizations', { name: `${name} ${randomUUID().slice(0, 8)}`, tier });
  await platform.admin('users', {
    email: `owner-${organization.id.toLowerCase()}@example.com`,
    password: 'correct horse battery staple',
    organizationId: organization.id,
  });
  const key = await platform.admin<{ key: string }>('api-keys', { organizationId: organization.id, mode: 'test' });
  return { organizationId: organization.id, key: key.key };
}

/** A published signup with `slots` slots of `capacity` places and `items` items. */
export async function publishedSignup(
  platform: Platform,
  key: string,
  options: { title: string; slots: number; capacity: number; items?: number; waitlist?: boolean },
): Promise<Signup & { slotIds: string[] }> {
  const signup = await platform.call<Signup>('/signups', {
    key,
    body: { title: options.title, eventDate: EVENT_DATE, ...(options.waitlist && { waitlist: { enabled: true } }) },
  });
  const slotIds: string[] = [];
  for (let first = 0; first < options.slots; first += SLOTS_PER_CALL) {
    const count = Math.min(SLOTS_PER_CALL, options.slots - first);
    const slots = Array.from({ length: count }, (_, i) => ({ title: `Shift ${first + i + 1}`, capacity: options.capacity }));
    const created = await platform.call<Created<{ id: string }>>(`/signups/${signup.id}/slots`, { key, body: { slots } });
    slotIds.push(...created.data.map((slot) => slot.id));
  }
  if (options.items) {
    const items = Array.from({ length: options.items }, (_, i) => ({ name: `Dish ${i + 1}`, quantityNeeded: 3 }));
    await platform.call(`/signups/${signup.id}/items`, { key, body: { items } });
  }
  await platform.call(`/signups/${signup.id}/publish`, { key, method: 'POST', expect: 200 });
  return { ...signup, slotIds };
}

export async function seed(platform: Platform): Promise<Fixtures> {
  const tenant = await newTenant(platform, 'org', 'Bench org');
  const read = await publishedSignup(platform, tenant.key, { title: 'Neighbourhood potluck', slots: 5, capacity: 10, items: 5 });
  const register = await publishedSignup(platform, tenant.key, {
    title: 'Marathon volunteers',
    slots: REGISTRATION_SLOTS,
    capacity: AMPLE_CAPACITY,
  });
  for (let i = 0; i < LISTED_SIGNUPS; i += 1) {
    await platform.call('/signups', { key: tenant.key, body: { title: `Bake sale ${i + 1}`, eventDate: EVENT_DATE } });
  }
  return { tenant, readSignupId: read.id, registerSignupId: register.id, registerSlotIds: register.slotIds };
}

/** A published signup whose one slot has only `open` of its places left. */
export async function nearlyFullSignup(
  platform: Platform,
  key: string,
  open: number,
  taken: number,
): Promise<{ signupId: string; slotId: string }> {
  const signup = await publishedSignup(platform, key, { title: 'Last places', slots: 1, capacity: open + taken });
  const slotId = signup.slotIds[0]!;
  await platform.call(`/signups/${signup.id}/participants`, {
    body: JSON.parse(registration([{ type: 'slot', id: slotId, quantity: taken }])),
  });
  return { signupId: signup.id, slotId };
}

/**
 * A published signup with the waitlist on whose one slot of `places` places is full, with as
 * many people in its line: the holders' confirmation tokens, for cancellations that each promote one.
 */
export async function fullLine(platform: Platform, key: string, places: number): Promise<{ signupId: string; holderTokens: string[] }> {
  const signup = await publishedSignup(platform, key, { title: 'Waitlisted shift', slots: 1, capacity: places, waitlist: true });
  const body = () => JSON.parse(registration([{ type: 'slot', id: signup.slotIds[0]! }])) as unknown;
  const holderTokens: string[] = [];
  for (let i = 0; i < places; i += 1) {
    holderTokens.push(
      (await platform.call<{ confirmationToken: string }>(`/signups/${signup.id}/participants`, { body: body() })).confirmationToken,
    );
  }
  for (let i = 0; i < places; i += 1) await platform.call(`/signups/${signup.id}/participants`, { body: body() });
  return { signupId: signup.id, holderTokens };
}

/** How many of a signup's participants are in `status` (pages of 100). */
export async function participantsIn(platform: Platform, key: string, signupId: string, status: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const query: string = `/signups/${signupId}/participants?status=${status}&limit=100${cursor ? `&cursor=${cursor}` : ''}`;
    const page: { data: unknown[]; nextCursor: string | null } = await platform.call(query, { key });
    count += page.data.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

/** How many places of the signup's first slot are taken. */
export async function takenPlaces(platform: Platform, key: string, signupId: string): Promise<number> {
  const signup = await platform.call<Signup>(`/signups/${signupId}`, { key });
  return signup.slots![0]!.taken;
}
