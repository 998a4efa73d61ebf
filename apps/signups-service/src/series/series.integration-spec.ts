import { type DuplicateSignupInput, MAX_SERIES_COPIES, type Principal } from '#libs/contracts';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, daysFromNow, person, problemOf, startApp } from '../testing/fixtures.js';

const DAY_MS = 86_400_000;
const NEW_YORK = 'America/New_York';

let h: AppHarness;

beforeAll(async () => {
  // Some tests create more signups for one organization than a day's cap allows (daily-cap.integration-spec.ts tests the cap with copies).
  h = await startApp('signups_series', { env: { SIGNUPS_PER_DAY: '10000' } });
});

afterAll(() => h.close());

const duplicate = (principal: Principal, id: string, input: DuplicateSignupInput) =>
  h.stack.bus.request('signups.duplicate', { principal, id, input });

const plusDays = (iso: string, days: number) => new Date(new Date(iso).getTime() + days * DAY_MS).toISOString();

/** The field a 422 names first, with every path it names. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; paths: string[] }> {
  const problem = await problemOf(promise);
  return { status: problem.status, paths: (problem.errors ?? []).map((e) => e.path) };
}

const signupsOf = async (principal: Principal) => (await h.stack.bus.request('signups.list', { principal, query: { limit: 100 } })).data;

describe('signups.duplicate', () => {
  it('copies the settings, questions, slots and items as drafts with new slugs and no participants, times moved with the event, in one series', async () => {
    const principal = caller();
    const eventDate = daysFromNow(10);
    const { signup, slots, items } = await h.signup(principal, {
      signup: {
        description: 'Bring gloves',
        location: 'Riverside park',
        timeZone: NEW_YORK,
        maxParticipants: 40,
        requiresPhone: true,
        eventDate,
        signupCloseDate: plusDays(eventDate, -1),
        reminderHoursBefore: 48,
        waitlist: { enabled: true, mode: 'offer', offerMinutes: 90 },
        questions: [{ type: 'single_choice', label: 'T-shirt size', required: true, options: ['S', 'M', 'L'] }],
      },
      slots: [{ title: 'Setup', startTime: plusDays(eventDate, 0), endTime: plusDays(eventDate, 1 / 12), capacity: 3 }],
      items: [{ name: 'Salad', notes: 'Green', quantityNeeded: 2 }],
    });
    const answers = { [signup.questions[0]!.id]: 'M' };
    await h.stack.bus.request('signups.participants.register', {
      signupId: signup.id,
      input: { ...person({ phone: '+14155550123' }), answers, selections: [{ type: 'slot', id: slots[0]!.id }] },
    });

    const later = plusDays(eventDate, 14);
    const sooner = plusDays(eventDate, 7);
    const { data: copies } = await duplicate(principal, signup.id, { eventDates: [later, sooner] });

    const source = await h.stack.bus.request('signups.get', { principal, id: signup.id });
    expect(source.seriesId).toMatch(/^[0-9a-f-]{36}$/);
    expect(source.participantCount).toBe(1);
    expect(copies.map((c) => c.eventDate)).toEqual([sooner, later]);
    expect(new Set([signup.slug, ...copies.map((c) => c.slug)]).size).toBe(3);
    for (const [i, copy] of copies.entries()) {
      const shift = (i + 1) * 7;
      expect(copy).toMatchObject({
        status: 'draft',
        seriesId: source.seriesId,
        title: signup.title,
        description: 'Bring gloves',
        location: 'Riverside park',
        timeZone: NEW_YORK,
        maxParticipants: 40,
        requiresPhone: true,
        reminderHoursBefore: 48,
        waitlist: { enabled: true, mode: 'offer', offerMinutes: 90 },
        signupCloseDate: plusDays(eventDate, shift - 1),
        participantCount: 0,
        publishedAt: null,
      });
      expect(copy.questions).toEqual([{ ...signup.questions[0]!, id: expect.any(String) }]);
      expect(copy.questions[0]!.id).not.toBe(signup.questions[0]!.id);
      const read = await h.stack.bus.request('signups.get', { principal, id: copy.id });
      expect(read.slots).toEqual([
        expect.objectContaining({
          title: 'Setup',
          startTime: plusDays(slots[0]!.startTime!, shift),
          endTime: plusDays(slots[0]!.endTime!, shift),
          capacity: 3,
          taken: 0,
        }),
      ]);
      expect(read.slots![0]!.id).not.toBe(slots[0]!.id);
      expect(read.items).toEqual([expect.objectContaining({ name: 'Salad', notes: 'Green', quantityNeeded: 2, quantityClaimed: 0 })]);
      expect(read.items![0]!.id).not.toBe(items[0]!.id);
      await eventually(() => expect(h.eventsFor(copy.id, 'signup.created')).toHaveLength(1));
    }
    await eventually(() =>
      expect(h.eventsFor(signup.id, 'signup.updated').map((e) => (e.data as { seriesId: string }).seriesId)).toEqual([source.seriesId]),
    );
  });

  it('keeps a series: a copy duplicated again joins the same one, and the list filters by it', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    const [first] = (await duplicate(principal, signup.id, { eventDate: plusDays(signup.eventDate, 7) })).data;
    const [second] = (await duplicate(principal, first!.id, { eventDate: plusDays(signup.eventDate, 14) })).data;
    await h.signup(principal);
    expect(second!.seriesId).toBe(first!.seriesId);
    const listed = await h.stack.bus.request('signups.list', { principal, query: { seriesId: first!.seriesId! } });
    expect(listed.data.map((s) => s.id).sort()).toEqual([signup.id, first!.id, second!.id].sort());
  });

  it('keeps 18:00 in New York across the November change of daylight saving time, weekly, slots included', async () => {
    const principal = caller();
    // Thursday 21 October 2027, 18:00 EDT (UTC-4); New York falls back to EST (UTC-5) on 7 November.
    const eventDate = '2027-10-21T22:00:00.000Z';
    const { signup } = await h.signup(principal, {
      signup: { timeZone: NEW_YORK, eventDate },
      slots: [{ title: 'Evening', startTime: eventDate, endTime: '2027-10-22T00:00:00.000Z', capacity: 5 }],
    });
    const { data: copies } = await duplicate(principal, signup.id, { recurrence: { frequency: 'weekly', count: 4 } });
    expect(copies.map((c) => c.eventDate)).toEqual([
      '2027-10-28T22:00:00.000Z',
      '2027-11-04T22:00:00.000Z',
      '2027-11-11T23:00:00.000Z',
      '2027-11-18T23:00:00.000Z',
    ]);
    const afterChange = await h.stack.bus.request('signups.get', { principal, id: copies[2]!.id });
    expect(afterChange.slots![0]).toMatchObject({ startTime: '2027-11-11T23:00:00.000Z', endTime: '2027-11-12T01:00:00.000Z' });
  });

  it(`makes at most ${MAX_SERIES_COPIES} copies: past it a 422 on the field, and nothing is created`, async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    const dates = Array.from({ length: MAX_SERIES_COPIES + 1 }, (_, i) => plusDays(signup.eventDate, i + 1));
    expect(await refusal(duplicate(principal, signup.id, { eventDates: dates }))).toEqual({ status: 422, paths: ['eventDates'] });
    expect(await refusal(duplicate(principal, signup.id, { recurrence: { frequency: 'daily', count: MAX_SERIES_COPIES + 1 } }))).toEqual({
      status: 422,
      paths: ['recurrence.count'],
    });
    const tooLong = { frequency: 'weekly' as const, until: plusDays(signup.eventDate, 7 * (MAX_SERIES_COPIES + 1)) };
    expect(await refusal(duplicate(principal, signup.id, { recurrence: tooLong }))).toEqual({ status: 422, paths: ['recurrence.until'] });
    expect(await signupsOf(principal)).toHaveLength(1);
    const { data } = await duplicate(principal, signup.id, {
      recurrence: { frequency: 'weekly', until: plusDays(signup.eventDate, 7 * MAX_SERIES_COPIES) },
    });
    expect(data).toHaveLength(MAX_SERIES_COPIES);
  });

  it('refuses dates in the past with a 422 on the field', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    expect(await refusal(duplicate(principal, signup.id, { eventDate: daysFromNow(-1) }))).toEqual({ status: 422, paths: ['eventDate'] });
    expect(await refusal(duplicate(principal, signup.id, { eventDates: [daysFromNow(3), daysFromNow(-3)] }))).toEqual({
      status: 422,
      paths: ['eventDates'],
    });
    const { signup: past } = await h.signup(principal, { status: 'draft', signup: { eventDate: daysFromNow(-30) } });
    expect(await refusal(duplicate(principal, past.id, { recurrence: { frequency: 'weekly', count: 2 } }))).toEqual({
      status: 422,
      paths: ['recurrence'],
    });
    expect(await signupsOf(principal)).toHaveLength(2);
  });

  it('takes exactly one of eventDate, eventDates and recurrence, and a recurrence with exactly one end', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    const date = daysFromNow(40);
    expect(await refusal(duplicate(principal, signup.id, {}))).toEqual({ status: 422, paths: ['eventDate'] });
    expect(await refusal(duplicate(principal, signup.id, { eventDate: date, eventDates: [date] }))).toEqual({
      status: 422,
      paths: ['eventDate', 'eventDates'],
    });
    expect(await refusal(duplicate(principal, signup.id, { recurrence: { frequency: 'daily' } }))).toEqual({
      status: 422,
      paths: ['recurrence.until'],
    });
    expect(await refusal(duplicate(principal, signup.id, { recurrence: { frequency: 'daily', until: signup.eventDate } }))).toEqual({
      status: 422,
      paths: ['recurrence.until'],
    });
    expect(await refusal(duplicate(principal, signup.id, { recurrence: { frequency: 'monthly', interval: 13, count: 2 } }))).toEqual({
      status: 422,
      paths: ['recurrence.interval'],
    });
    expect(await signupsOf(principal)).toHaveLength(1);
  });

  it("refuses another organization's signup: 403 when it is public, 404 when it is a draft or unknown", async () => {
    const owner = caller();
    const other = caller();
    const input = { eventDate: daysFromNow(50) };
    const { signup: published } = await h.signup(owner);
    const { signup: draft } = await h.signup(owner, { status: 'draft' });
    expect((await problemOf(duplicate(other, published.id, input))).code).toBe('forbidden');
    expect((await problemOf(duplicate(other, draft.id, input))).code).toBe('not_found');
    expect((await problemOf(duplicate(caller({ organizationId: owner.organizationId, livemode: true }), draft.id, input))).code).toBe(
      'not_found',
    );
    expect((await problemOf(duplicate(owner, '0190a0b2-7a3c-7def-8a12-1234567890ab', input))).code).toBe('not_found');
    expect(await signupsOf(other)).toEqual([]);
    expect((await h.stack.bus.request('signups.get', { principal: owner, id: published.id })).seriesId).toBeNull();
  });
});

describe('signups.series.publish and signups.series.close', () => {
  it('publishes every draft of the series, then closes every published signup, each with its event', async () => {
    const principal = caller();
    const { signup } = await h.signup(principal);
    const { data: copies } = await duplicate(principal, signup.id, { eventDates: [daysFromNow(40), daysFromNow(47)] });
    const seriesId = copies[0]!.seriesId!;
    const unrelated = await h.signup(principal, { status: 'draft' });

    const published = await h.stack.bus.request('signups.series.publish', { principal, seriesId });
    expect(published.data.map((s) => [s.id, s.status])).toEqual(copies.map((c) => [c.id, 'published']));
    expect((await h.stack.bus.request('signups.series.publish', { principal, seriesId })).data).toEqual([]);

    const closed = await h.stack.bus.request('signups.series.close', { principal, seriesId });
    expect(closed.data.map((s) => [s.id, s.status])).toEqual([signup, ...copies].map((s) => [s.id, 'closed']));
    expect((await h.stack.bus.request('signups.get', { principal, id: unrelated.signup.id })).status).toBe('draft');
    for (const copy of copies) {
      await eventually(() =>
        expect(h.eventsFor(copy.id).map((e) => e.type)).toEqual(['signup.created', 'signup.published', 'signup.closed']),
      );
    }
  });

  it("answers 404 for another organization's series and for an unknown one, and changes nothing", async () => {
    const owner = caller();
    const { signup } = await h.signup(owner);
    const { data: copies } = await duplicate(owner, signup.id, { eventDate: daysFromNow(40) });
    const seriesId = copies[0]!.seriesId!;
    for (const subject of ['signups.series.publish', 'signups.series.close'] as const) {
      expect((await problemOf(h.stack.bus.request(subject, { principal: caller(), seriesId }))).code).toBe('not_found');
      expect(
        (await problemOf(h.stack.bus.request(subject, { principal: owner, seriesId: '0190a0b2-7a3c-7def-8a12-1234567890ab' }))).code,
      ).toBe('not_found');
    }
    expect((await refusal(h.stack.bus.request('signups.series.close', { principal: owner, seriesId: 'nope' }))).paths).toEqual([
      'seriesId',
    ]);
    expect((await h.stack.bus.request('signups.get', { principal: owner, id: copies[0]!.id })).status).toBe('draft');
  });
});
