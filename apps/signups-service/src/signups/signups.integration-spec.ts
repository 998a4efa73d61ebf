import { type CloudEvent, encodeCursor, EVENT_TYPES, newId, newPrefixedId, type Principal, type SignupView } from '#libs/contracts';
import { createTestStack, eventually, problemOf, type TestStack } from '#libs/testing';
import { signupsServiceApp } from '../index.js';
import { caller, SIGNUP_TIME_ZONE, SIGNUPS_ENV, signupsList } from '../testing/fixtures.js';

let stack: TestStack;
const events: CloudEvent[] = [];

beforeAll(async () => {
  stack = await createTestStack('signups_service');
  // Listing tests create more signups for one organization than a day's cap allows (daily-cap.integration-spec.ts tests the cap).
  await stack.boot(signupsServiceApp, { ...SIGNUPS_ENV, SIGNUPS_PER_DAY: '10000' });
  await stack.bus.broadcast(
    EVENT_TYPES.filter((t) => t.startsWith('signup.')),
    async (event) => {
      events.push(event);
    },
  );
});

afterAll(async () => {
  await stack?.close();
});

let dayOffset = 0;
function create(
  principal: Principal,
  input: Partial<{
    title: string;
    eventDate: string;
    description: string;
    location: string;
    timeZone: string;
    reminderHoursBefore: number;
  }> = {},
) {
  dayOffset += 1;
  return stack.bus.request('signups.create', {
    principal,
    input: {
      title: 'Summer potluck',
      eventDate: new Date(Date.UTC(2027, 0, 1) + dayOffset * 86_400_000).toISOString(),
      timeZone: SIGNUP_TIME_ZONE,
      ...input,
    },
  });
}

async function published(principal: Principal): Promise<SignupView> {
  const signup = await create(principal);
  return stack.bus.request('signups.publish', { principal, id: signup.id });
}

function eventsFor(id: string, type?: string): CloudEvent[] {
  return events.filter((e) => e.subject === id && (type === undefined || e.type === type));
}

/** Closes the signup and waits for its signup.closed event: every event of the signup committed before it has arrived too. */
async function settleEvents(principal: Principal, id: string): Promise<void> {
  await stack.bus.request('signups.close', { principal, id });
  await eventually(() => expect(eventsFor(id, 'signup.closed')).toHaveLength(1));
}

describe('creating and reading a signup', () => {
  it('creates a sandbox draft with a slug from the title and a public link on the public origin', async () => {
    const principal = caller();
    const signup = await create(principal, { title: 'Crème Brûlée Night!', eventDate: '2027-03-01T18:00:00Z', location: 'Hall' });
    expect(signup).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      slug: expect.stringMatching(/^creme-brulee-night-[0-9a-z]{6}$/),
      title: 'Crème Brûlée Night!',
      description: null,
      status: 'draft',
      eventDate: '2027-03-01T18:00:00.000Z',
      timeZone: 'UTC',
      location: 'Hall',
      maxParticipants: null,
      requiresPhone: false,
      signupCloseDate: null,
      reminderHoursBefore: 24,
      waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
      seriesId: null,
      organizationId: principal.organizationId,
      participantCount: 0,
      publicUrl: `https://api.example.test/s/${signup.slug}`,
      livemode: false,
      createdAt: expect.any(String),
      updatedAt: signup.createdAt,
      publishedAt: null,
      closedAt: null,
      questions: [],
    });
  });

  it('marks a signup created with a live credential as live', async () => {
    expect((await create(caller({ livemode: true }))).livemode).toBe(true);
  });

  it('gives two signups with the same title different slugs', async () => {
    const principal = caller();
    const [a, b] = await Promise.all([create(principal, { title: 'Bake sale' }), create(principal, { title: 'Bake sale' })]);
    expect(a.slug).not.toBe(b.slug);
  });

  it('returns a single signup with its slots and items', async () => {
    const principal = caller();
    const signup = await create(principal);
    expect(await stack.bus.request('signups.get', { principal, id: signup.id })).toEqual({ ...signup, slots: [], items: [] });
  });

  it('validates input again behind the edge', async () => {
    const problem = await problemOf(stack.bus.request('signups.create', { principal: caller(), input: { title: '', eventDate: 'soon' } }));
    expect(problem.code).toBe('validation_failed');
    expect(problem.errors?.map((e) => e.path)).toEqual(['title', 'eventDate']);
  });

  it('creates a signup in the time zone given, stored under the name the runtime lists, and carries it on its event', async () => {
    const principal = caller();
    const signup = await create(principal, { timeZone: 'US/Mountain' });
    expect(signup.timeZone).toBe('America/Denver');
    expect(await stack.bus.request('signups.get', { principal, id: signup.id })).toMatchObject({ timeZone: 'America/Denver' });
    await eventually(() => expect(eventsFor(signup.id, 'signup.created')[0]?.data).toMatchObject({ timeZone: 'America/Denver' }));
  });

  it('refuses a time zone that is an offset with validation_failed on timeZone, creating nothing', async () => {
    const principal = caller();
    for (const timeZone of ['+05:00', 'GMT+1', 'Etc/GMT-3', 'EST', '', 'Europe/Berl\u0131n']) {
      const problem = await problemOf(create(principal, { timeZone }));
      expect(problem).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'timeZone', message: expect.stringMatching(/^Unknown time zone/) }],
      });
    }
    expect((await stack.bus.request('signups.list', { principal, query: {} })).data).toEqual([]);
  });

  it("cannot create a signup without a zone while the auth-server, which knows the organization's, does not answer: nothing is stored", async () => {
    const principal = caller();
    const problem = await problemOf(
      stack.bus.request('signups.create', { principal, input: { title: 'x', eventDate: '2027-01-01T00:00:00Z' } }),
    );
    expect(problem.code).toBe('internal_error');
    expect((await stack.bus.request('signups.list', { principal, query: {} })).data).toEqual([]);
  });

  it('creates a signup with the reminder lead given, from 0 (no automatic reminder) to 336, and carries it on its event', async () => {
    const principal = caller();
    const none = await create(principal, { reminderHoursBefore: 0 });
    const longest = await create(principal, { reminderHoursBefore: 336 });
    expect([none.reminderHoursBefore, longest.reminderHoursBefore]).toEqual([0, 336]);
    expect(await stack.bus.request('signups.get', { principal, id: none.id })).toMatchObject({ reminderHoursBefore: 0 });
    await eventually(() => expect(eventsFor(longest.id, 'signup.created')[0]?.data).toMatchObject({ reminderHoursBefore: 336 }));
  });

  it('refuses a reminder lead that is no whole number of hours from 0 to 336 with validation_failed on reminderHoursBefore, creating nothing', async () => {
    const principal = caller();
    const cases: [unknown, string][] = [
      [-1, 'Must be at least 0'],
      [337, 'Must be at most 336'],
      [1.5, 'Expected integer'],
      ['24', 'Expected integer'],
      [null, 'Expected integer'],
      [true, 'Expected integer'],
    ];
    for (const [reminderHoursBefore, message] of cases) {
      const problem = await problemOf(create(principal, { reminderHoursBefore: reminderHoursBefore as never }));
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'reminderHoursBefore', message }] });
    }
    expect((await stack.bus.request('signups.list', { principal, query: {} })).data).toEqual([]);
  });

  it('refuses a malformed id with validation_failed on path id', async () => {
    const problem = await problemOf(stack.bus.request('signups.get', { principal: caller(), id: 'not-a-uuid' }));
    expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'id', message: 'Invalid uuid' }] });
  });
});

describe('editing a signup', () => {
  it('changes the given fields, clears nullable ones given as null and keeps the rest', async () => {
    const principal = caller();
    const signup = await create(principal, { description: 'Bring a dish', location: 'Park' });
    const updated = await stack.bus.request('signups.update', {
      principal,
      id: signup.id,
      input: { title: 'Winter potluck', location: null, maxParticipants: 30, requiresPhone: true, signupCloseDate: '2026-12-31T12:00:00Z' },
    });
    expect(updated).toMatchObject({
      title: 'Winter potluck',
      description: 'Bring a dish',
      location: null,
      maxParticipants: 30,
      requiresPhone: true,
      signupCloseDate: '2026-12-31T12:00:00.000Z',
      slug: signup.slug,
      status: 'draft',
    });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(signup.updatedAt));
    expect(await stack.bus.request('signups.get', { principal, id: signup.id })).toMatchObject({ title: 'Winter potluck', location: null });
  });

  it('moves a signup to another time zone, which its public view and signup.updated carry; the instants stay', async () => {
    const principal = caller();
    const signup = await published(principal);
    const updated = await stack.bus.request('signups.update', { principal, id: signup.id, input: { timeZone: 'Asia/Tokyo' } });
    expect(updated).toMatchObject({ timeZone: 'Asia/Tokyo', eventDate: signup.eventDate });
    expect(await stack.bus.request('signups.public.get', { slugOrId: signup.slug })).toMatchObject({ timeZone: 'Asia/Tokyo' });
    await eventually(() => expect(eventsFor(signup.id, 'signup.updated')[0]?.data).toMatchObject({ timeZone: 'Asia/Tokyo' }));
    const refused = await problemOf(stack.bus.request('signups.update', { principal, id: signup.id, input: { timeZone: null as never } }));
    expect(refused.errors).toEqual([{ path: 'timeZone', message: 'Expected string' }]);
  });

  it('changes the reminder lead alone, which signup.updated carries; a lead out of range or null is refused and changes nothing', async () => {
    const principal = caller();
    const signup = await published(principal);
    const updated = await stack.bus.request('signups.update', { principal, id: signup.id, input: { reminderHoursBefore: 48 } });
    expect(updated).toEqual({ ...signup, reminderHoursBefore: 48, updatedAt: expect.any(String), slots: [], items: [] });
    await eventually(() => expect(eventsFor(signup.id, 'signup.updated')[0]?.data).toMatchObject({ reminderHoursBefore: 48 }));
    for (const [reminderHoursBefore, message] of [
      [null, 'Expected integer'],
      [400, 'Must be at most 336'],
      [2.5, 'Expected integer'],
    ] as const) {
      const refused = await problemOf(
        stack.bus.request('signups.update', { principal, id: signup.id, input: { reminderHoursBefore: reminderHoursBefore as never } }),
      );
      expect(refused).toMatchObject({ code: 'validation_failed', errors: [{ path: 'reminderHoursBefore', message }] });
    }
    expect(await stack.bus.request('signups.get', { principal, id: signup.id })).toMatchObject({ reminderHoursBefore: 48 });
  });

  it('edits a published signup', async () => {
    const principal = caller();
    const signup = await published(principal);
    const updated = await stack.bus.request('signups.update', { principal, id: signup.id, input: { description: 'Now with dessert' } });
    expect(updated).toMatchObject({ status: 'published', description: 'Now with dessert' });
  });

  it('answers an empty edit with the signup unchanged and emits no event', async () => {
    const principal = caller();
    const signup = await published(principal);
    expect(await stack.bus.request('signups.update', { principal, id: signup.id, input: {} })).toEqual({ ...signup, slots: [], items: [] });
    await settleEvents(principal, signup.id);
    expect(eventsFor(signup.id, 'signup.updated')).toHaveLength(0);
  });

  it('refuses to edit a closed signup with conflict', async () => {
    const principal = caller();
    const signup = await published(principal);
    await stack.bus.request('signups.close', { principal, id: signup.id });
    const problem = await problemOf(stack.bus.request('signups.update', { principal, id: signup.id, input: { title: 'Late change' } }));
    expect(problem.code).toBe('conflict');
  });
});

describe('publishing and closing', () => {
  it('publishes a draft and stamps publishedAt', async () => {
    const principal = caller();
    const signup = await create(principal);
    const result = await stack.bus.request('signups.publish', { principal, id: signup.id });
    expect(result.status).toBe('published');
    expect(result.publishedAt).not.toBeNull();
    expect(result.closedAt).toBeNull();
  });

  it('answers publishing a published signup with the signup unchanged', async () => {
    const principal = caller();
    const signup = await published(principal);
    expect(await stack.bus.request('signups.publish', { principal, id: signup.id })).toEqual(signup);
  });

  it('refuses to publish a closed signup with conflict', async () => {
    const principal = caller();
    const signup = await published(principal);
    await stack.bus.request('signups.close', { principal, id: signup.id });
    const problem = await problemOf(stack.bus.request('signups.publish', { principal, id: signup.id }));
    expect(problem).toMatchObject({ code: 'conflict', status: 409 });
  });

  it('closes a published signup and stamps closedAt', async () => {
    const principal = caller();
    const signup = await published(principal);
    const closed = await stack.bus.request('signups.close', { principal, id: signup.id });
    expect(closed).toMatchObject({ status: 'closed', publishedAt: signup.publishedAt, closedAt: expect.any(String) });
  });

  it('answers closing a closed signup with the signup unchanged', async () => {
    const principal = caller();
    const signup = await published(principal);
    const closed = await stack.bus.request('signups.close', { principal, id: signup.id });
    expect(await stack.bus.request('signups.close', { principal, id: signup.id })).toEqual(closed);
  });

  it('refuses to close a draft with conflict', async () => {
    const principal = caller();
    const signup = await create(principal);
    expect((await problemOf(stack.bus.request('signups.close', { principal, id: signup.id }))).code).toBe('conflict');
  });

  it('publishes a draft exactly once when twenty publish calls race', async () => {
    const principal = caller();
    const signup = await create(principal);
    const results = await Promise.all(Array.from({ length: 20 }, () => stack.bus.request('signups.publish', { principal, id: signup.id })));
    expect(new Set(results.map((r) => `${r.status} ${r.publishedAt}`)).size).toBe(1);
    expect(results[0]!.status).toBe('published');
    await settleEvents(principal, signup.id);
    expect(eventsFor(signup.id, 'signup.published')).toHaveLength(1);
  });

  it('closes a signup exactly once when close calls race', async () => {
    const principal = caller();
    const signup = await published(principal);
    const results = await Promise.all(Array.from({ length: 10 }, () => stack.bus.request('signups.close', { principal, id: signup.id })));
    expect(new Set(results.map((r) => r.closedAt)).size).toBe(1);
    await eventually(() => expect(eventsFor(signup.id, 'signup.closed')).toHaveLength(1));
    await stack.bus.request('signups.delete', { principal, id: signup.id });
    await eventually(() => expect(eventsFor(signup.id, 'signup.deleted')).toHaveLength(1));
    expect(eventsFor(signup.id, 'signup.closed')).toHaveLength(1);
  });
});

describe('deleting a signup', () => {
  it('removes the signup and returns it as it was', async () => {
    const principal = caller();
    const signup = await published(principal);
    expect(await stack.bus.request('signups.delete', { principal, id: signup.id })).toEqual(signup);
    expect((await problemOf(stack.bus.request('signups.get', { principal, id: signup.id }))).code).toBe('not_found');
  });

  it('answers not_found for a signup that does not exist', async () => {
    expect((await problemOf(stack.bus.request('signups.delete', { principal: caller(), id: newId() }))).code).toBe('not_found');
  });
});

describe('visibility across organizations', () => {
  const mutations = (principal: Principal, id: string) => ({
    update: stack.bus.request('signups.update', { principal, id, input: { title: 'Hijacked' } }),
    publish: stack.bus.request('signups.publish', { principal, id }),
    close: stack.bus.request('signups.close', { principal, id }),
    delete: stack.bus.request('signups.delete', { principal, id }),
  });

  async function codesOf(operations: Record<string, Promise<unknown>>): Promise<Record<string, string>> {
    const entries = await Promise.all(Object.entries(operations).map(async ([name, op]) => [name, (await problemOf(op)).code] as const));
    return Object.fromEntries(entries);
  }

  it('shows another organization its published signup but forbids every change', async () => {
    const owner = caller();
    const signup = await published(owner);
    expect(await stack.bus.request('signups.get', { principal: caller(), id: signup.id })).toMatchObject({
      id: signup.id,
      status: 'published',
    });
    expect(await codesOf(mutations(caller(), signup.id))).toEqual({
      update: 'forbidden',
      publish: 'forbidden',
      close: 'forbidden',
      delete: 'forbidden',
    });
    expect(await stack.bus.request('signups.get', { principal: owner, id: signup.id })).toMatchObject({
      title: signup.title,
      status: 'published',
    });
  });

  it('shows another organization its closed signup but forbids every change', async () => {
    const owner = caller();
    const signup = await published(owner);
    await stack.bus.request('signups.close', { principal: owner, id: signup.id });
    expect(await stack.bus.request('signups.get', { principal: caller(), id: signup.id })).toMatchObject({ status: 'closed' });
    expect(await codesOf(mutations(caller(), signup.id))).toEqual({
      update: 'forbidden',
      publish: 'forbidden',
      close: 'forbidden',
      delete: 'forbidden',
    });
  });

  it("hides another organization's draft exactly as a signup that does not exist", async () => {
    const draft = await create(caller());
    const stranger = caller();
    const hidden = await problemOf(stack.bus.request('signups.get', { principal: stranger, id: draft.id }));
    const absent = await problemOf(stack.bus.request('signups.get', { principal: stranger, id: newId() }));
    expect(hidden.toWire()).toEqual(absent.toWire());
    expect(hidden.code).toBe('not_found');
    expect(await codesOf(mutations(stranger, draft.id))).toEqual({
      update: 'not_found',
      publish: 'not_found',
      close: 'not_found',
      delete: 'not_found',
    });
  });

  it("lists only the caller's own signups", async () => {
    const principal = caller();
    const own = await create(principal);
    await published(caller());
    const page = await stack.bus.request('signups.list', { principal, query: {} });
    expect(page).toEqual({ data: [own], nextCursor: null });
  });
});

describe('sandbox and live separation', () => {
  it('keeps each mode of one organization to its own signups', async () => {
    const organizationId = newPrefixedId('org');
    const sandbox = caller({ organizationId, livemode: false });
    const live = caller({ organizationId, livemode: true });
    const testDraft = await create(sandbox);
    const liveDraft = await create(live);
    expect((await stack.bus.request('signups.list', { principal: sandbox, query: {} })).data.map((s) => s.id)).toEqual([testDraft.id]);
    expect((await stack.bus.request('signups.list', { principal: live, query: {} })).data.map((s) => s.id)).toEqual([liveDraft.id]);
    expect((await problemOf(stack.bus.request('signups.get', { principal: live, id: testDraft.id }))).code).toBe('not_found');
    expect((await problemOf(stack.bus.request('signups.publish', { principal: sandbox, id: liveDraft.id }))).code).toBe('not_found');
  });

  it('hides a published sandbox signup from a live credential, even of its own organization', async () => {
    const organizationId = newPrefixedId('org');
    const signup = await published(caller({ organizationId, livemode: false }));
    const live = caller({ organizationId, livemode: true });
    expect((await problemOf(stack.bus.request('signups.get', { principal: live, id: signup.id }))).code).toBe('not_found');
    expect((await problemOf(stack.bus.request('signups.close', { principal: live, id: signup.id }))).code).toBe('not_found');
  });
});

describe('scopes', () => {
  it('lets a read-only credential read but names signups:write for every change', async () => {
    const organizationId = newPrefixedId('org');
    const signup = await create(caller({ organizationId }));
    const reader = caller({ organizationId, scopes: ['signups:read'] });
    expect(await stack.bus.request('signups.get', { principal: reader, id: signup.id })).toMatchObject({ id: signup.id });
    expect((await stack.bus.request('signups.list', { principal: reader, query: {} })).data).toHaveLength(1);
    const attempts = [
      stack.bus.request('signups.create', { principal: reader, input: { title: 'x', eventDate: '2027-01-01T00:00:00Z' } }),
      stack.bus.request('signups.update', { principal: reader, id: signup.id, input: { title: 'x' } }),
      stack.bus.request('signups.publish', { principal: reader, id: signup.id }),
      stack.bus.request('signups.close', { principal: reader, id: signup.id }),
      stack.bus.request('signups.delete', { principal: reader, id: signup.id }),
    ];
    for (const problem of await Promise.all(attempts.map(problemOf))) {
      expect(problem).toMatchObject({
        code: 'scope_required',
        headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="signups:write"' },
      });
      expect(problem.detail).toContain('signups:write');
    }
  });

  it('names signups:read when a write-only credential reads', async () => {
    const writer = caller({ scopes: ['signups:write'] });
    const signup = await create(writer);
    for (const problem of await Promise.all([
      problemOf(stack.bus.request('signups.get', { principal: writer, id: signup.id })),
      problemOf(stack.bus.request('signups.list', { principal: writer, query: {} })),
    ])) {
      expect(problem.code).toBe('scope_required');
      expect(problem.detail).toContain('signups:read');
    }
  });

  it('refuses a credential with neither signups scope before looking the signup up', async () => {
    const problem = await problemOf(
      stack.bus.request('signups.get', { principal: caller({ scopes: ['participants:read'] }), id: newId() }),
    );
    expect(problem.code).toBe('scope_required');
  });
});

describe('listing signups', () => {
  const DAY = 86_400_000;
  const base = Date.UTC(2028, 0, 1);

  /** Three signups share each event date, so the id decides their order. */
  async function seed(principal: Principal, count: number, offset = 0): Promise<SignupView[]> {
    const created: SignupView[] = [];
    for (let i = 0; i < count; i++) {
      const eventDate = new Date(base + Math.floor((i + offset) / 3) * DAY).toISOString();
      created.push(
        await stack.bus.request('signups.create', {
          principal,
          input: { title: `Event ${i + offset}`, eventDate, timeZone: SIGNUP_TIME_ZONE },
        }),
      );
    }
    return created;
  }

  function sortKey(s: SignupView): string {
    return `${s.eventDate} ${s.id}`;
  }

  function newestFirst(signups: SignupView[]): SignupView[] {
    return [...signups].sort((a, b) => (sortKey(a) < sortKey(b) ? 1 : -1));
  }

  async function allPages(principal: Principal, limit: number, between: () => Promise<unknown> = async () => undefined) {
    const pages: SignupView[][] = [];
    let cursor: string | undefined;
    do {
      const page = await stack.bus.request('signups.list', { principal, query: { limit, ...(cursor && { cursor }) } });
      pages.push(page.data);
      cursor = page.nextCursor ?? undefined;
      await between();
    } while (cursor);
    return pages;
  }

  it('pages through 45 signups in three pages, newest event first, none twice and none missing', async () => {
    const principal = caller();
    const created = await seed(principal, 45);
    const pages = await allPages(principal, 20);
    expect(pages.map((p) => p.length)).toEqual([20, 20, 5]);
    expect(pages.flat().map((s) => s.id)).toEqual(newestFirst(created).map((s) => s.id));
  });

  it('stays stable while signups are created between page fetches', async () => {
    const principal = caller();
    const created = await seed(principal, 45);
    let round = 0;
    const pages = await allPages(principal, 20, () => seed(principal, 6, 3 + 15 * round++));
    const seen = pages.flat().map((s) => s.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => created.some((s) => s.id === id))).toEqual(newestFirst(created).map((s) => s.id));
    const keys = pages.flat().map(sortKey);
    expect(keys).toEqual([...keys].sort().reverse());
  });

  it('answers 20 signups by default and a null nextCursor on the last page', async () => {
    const principal = caller();
    await seed(principal, 21);
    const first = await stack.bus.request('signups.list', { principal, query: {} });
    expect(first.data).toHaveLength(20);
    const last = await stack.bus.request('signups.list', { principal, query: { cursor: first.nextCursor! } });
    expect(last).toEqual({ data: [expect.objectContaining({ title: 'Event 0' })], nextCursor: null });
  });

  it('omits slots and items from list entries', async () => {
    const principal = caller();
    await seed(principal, 1);
    const [entry] = (await stack.bus.request('signups.list', { principal, query: {} })).data;
    expect(entry).not.toHaveProperty('slots');
    expect(entry).not.toHaveProperty('items');
  });

  it('filters by status', async () => {
    const principal = caller();
    const [a, b, c] = await seed(principal, 3);
    await stack.bus.request('signups.publish', { principal, id: a!.id });
    await stack.bus.request('signups.publish', { principal, id: c!.id });
    await stack.bus.request('signups.close', { principal, id: c!.id });
    const ids = async (status: 'draft' | 'published' | 'closed') =>
      (await stack.bus.request('signups.list', { principal, query: { status } })).data.map((s) => s.id);
    expect(await ids('published')).toEqual([a!.id]);
    expect(await ids('draft')).toEqual([b!.id]);
    expect(await ids('closed')).toEqual([c!.id]);
  });

  it('refuses a malformed cursor with validation_failed on path cursor', async () => {
    const principal = caller();
    for (const cursor of [
      '%%%',
      encodeCursor({ eventDate: 'yesterday', id: newId() }, signupsList(principal)),
      encodeCursor({ eventDate: '2027-01-01T00:00:00.000Z', id: 'x' }, signupsList(principal)),
    ]) {
      const problem = await problemOf(stack.bus.request('signups.list', { principal, query: { cursor } }));
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
    }
  });

  it('refuses a cursor whose date is out of range or not RFC 3339, before it reaches the database', async () => {
    const principal = caller();
    const dates = [
      '-271821-04-20T00:00:00.000Z',
      '+275760-09-13T00:00:00.000Z',
      '2027-02-30T00:00:00.000Z',
      '2027-01-01',
      'Fri, 01 Jan 2027 00:00:00 GMT',
    ];
    for (const eventDate of dates) {
      const problem = await problemOf(
        stack.bus.request('signups.list', {
          principal,
          query: { cursor: encodeCursor({ eventDate, id: newId() }, signupsList(principal)) },
        }),
      );
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor', message: 'Invalid cursor' }] });
    }
    const valid = await stack.bus.request('signups.list', {
      principal,
      query: { cursor: encodeCursor({ eventDate: '2027-01-01T00:00:00+02:00', id: newId().toUpperCase() }, signupsList(principal)) },
    });
    expect(valid).toEqual({ data: [], nextCursor: null });
  });

  it('refuses a limit outside 1..100 with validation_failed on path limit', async () => {
    const principal = caller();
    for (const limit of [0, 101]) {
      const problem = await problemOf(stack.bus.request('signups.list', { principal, query: { limit } }));
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'limit', message: expect.any(String) }] });
    }
  });

  it('refuses a cursor of another organization, mode or filter, with validation_failed on path cursor', async () => {
    const principal = caller();
    await create(principal);
    await create(principal);
    const { nextCursor } = await stack.bus.request('signups.list', { principal, query: { limit: 1 } });
    expect(nextCursor).toEqual(expect.any(String));
    for (const [who, query] of [
      [caller(), {}],
      [caller({ organizationId: principal.organizationId, livemode: true }), {}],
      [principal, { status: 'draft' as const }],
      [principal, { updated_since: '2026-01-01T00:00:00Z' }],
    ] as const) {
      const problem = await problemOf(stack.bus.request('signups.list', { principal: who, query: { ...query, cursor: nextCursor! } }));
      expect(problem).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'cursor', message: expect.stringContaining('belongs to another list') }],
      });
    }
  });
});

describe('listing signups changed since a time (updated_since)', () => {
  it('lists only the signups changed at or after it, newest event first, page by page', async () => {
    const principal = caller();
    const untouched = await create(principal);
    const first = await create(principal);
    const second = await create(principal);
    const edited = [
      await stack.bus.request('signups.update', { principal, id: first.id, input: { title: 'Moved' } }),
      await stack.bus.request('signups.update', { principal, id: second.id, input: { title: 'Moved too' } }),
    ];
    const since = edited[0]!.updatedAt;
    expect(Date.parse(since)).toBeGreaterThan(Date.parse(untouched.updatedAt));
    const page = await stack.bus.request('signups.list', { principal, query: { updated_since: since, limit: 1 } });
    expect(page.data.map((s) => s.id)).toEqual([second.id]);
    const next = await stack.bus.request('signups.list', {
      principal,
      query: { updated_since: since, limit: 1, cursor: page.nextCursor! },
    });
    expect(next).toEqual({ data: [expect.objectContaining({ id: first.id, title: 'Moved' })], nextCursor: null });
    const all = await stack.bus.request('signups.list', { principal, query: { updated_since: untouched.updatedAt } });
    expect(all.data.map((s) => s.id)).toEqual([second.id, first.id, untouched.id]);
  });

  it('refuses an updated_since in the future or not an RFC 3339 date-time, with validation_failed on path updated_since', async () => {
    const principal = caller();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    for (const updated_since of [future, 'yesterday', '2026-02-30T00:00:00Z', '2026-01-01']) {
      const problem = await problemOf(stack.bus.request('signups.list', { principal, query: { updated_since } }));
      expect(problem).toMatchObject({ code: 'validation_failed', errors: [{ path: 'updated_since' }] });
    }
  });
});

describe('events', () => {
  it('emits one CloudEvent per change through the outbox, each carrying the signup as answered', async () => {
    const principal = caller({ livemode: true });
    const created = await create(principal);
    const updated = await stack.bus.request('signups.update', { principal, id: created.id, input: { title: 'Renamed' } });
    const publishedView = await stack.bus.request('signups.publish', { principal, id: created.id });
    const closed = await stack.bus.request('signups.close', { principal, id: created.id });
    const deleted = await stack.bus.request('signups.delete', { principal, id: created.id });
    await eventually(() => expect(eventsFor(created.id)).toHaveLength(5));
    const byType = Object.fromEntries(eventsFor(created.id).map((e) => [e.type, e]));
    expect(byType).toEqual({
      'signup.created': expect.objectContaining({ data: created }),
      // The answer is the signup as signups.get shows it; the event carries the list form, without slots and items.
      'signup.updated': expect.objectContaining({ data: { ...updated, slots: undefined, items: undefined } }),
      'signup.published': expect.objectContaining({ data: publishedView }),
      'signup.closed': expect.objectContaining({ data: closed }),
      'signup.deleted': expect.objectContaining({ data: deleted }),
    });
    for (const event of eventsFor(created.id)) {
      expect(event).toMatchObject({
        specversion: '1.0',
        source: 'signups-service',
        subject: created.id,
        orgid: principal.organizationId,
        livemode: true,
        datacontenttype: 'application/json',
        id: expect.any(String),
        time: expect.any(String),
      });
    }
  });

  it('emits nothing for a no-op publish or close', async () => {
    const principal = caller();
    const signup = await published(principal);
    await stack.bus.request('signups.publish', { principal, id: signup.id });
    await settleEvents(principal, signup.id);
    await stack.bus.request('signups.close', { principal, id: signup.id });
    await stack.bus.request('signups.delete', { principal, id: signup.id });
    await eventually(() => expect(eventsFor(signup.id, 'signup.deleted')).toHaveLength(1));
    expect(eventsFor(signup.id).map((e) => e.type)).toEqual(['signup.created', 'signup.published', 'signup.closed', 'signup.deleted']);
  });

  it('emits nothing for a refused change', async () => {
    const principal = caller();
    const signup = await create(principal);
    await problemOf(stack.bus.request('signups.close', { principal, id: signup.id }));
    await problemOf(stack.bus.request('signups.update', { principal: caller(), id: signup.id, input: { title: 'x' } }));
    await stack.bus.request('signups.delete', { principal, id: signup.id });
    await eventually(() => expect(eventsFor(signup.id, 'signup.deleted')).toHaveLength(1));
    expect(eventsFor(signup.id).map((e) => e.type)).toEqual(['signup.created', 'signup.deleted']);
  });
});
