import type { DataSource } from 'typeorm';
import type { CheckInInput, ParticipantView, Principal, RegistrationResultView, SelectionInput } from '#libs/contracts';
import { type ProblemCode, ProblemError } from '#libs/problem';
import { eventually } from '#libs/testing';
import { type AppHarness, caller, daysFromNow, person, problemOf, startApp } from '../testing/fixtures.js';

let h: AppHarness;
let db: DataSource;

beforeAll(async () => {
  h = await startApp('signups_attendance');
  db = h.app.context.dataSource!;
}, 60_000);

afterAll(async () => {
  await h?.close();
});

const TIMEOUT = { timeoutMs: 60_000 };

function register(signupId: string, selections: SelectionInput[] = [], email?: string): Promise<RegistrationResultView> {
  return h.stack.bus.request(
    'signups.participants.register',
    { signupId, input: { ...person(email ? { email } : {}), selections } },
    TIMEOUT,
  );
}

const ref = (principal: Principal, signupId: string, id: string) => ({ principal, signupId, id });
const checkIn = (principal: Principal, signupId: string, id: string, input: CheckInInput = {}) =>
  h.stack.bus.request('signups.attendance.check_in', { ...ref(principal, signupId, id), input }, TIMEOUT);
const undoCheckIn = (principal: Principal, signupId: string, id: string) =>
  h.stack.bus.request('signups.attendance.undo_check_in', ref(principal, signupId, id));
const noShow = (principal: Principal, signupId: string, id: string) =>
  h.stack.bus.request('signups.attendance.no_show', ref(principal, signupId, id));
const undoNoShow = (principal: Principal, signupId: string, id: string) =>
  h.stack.bus.request('signups.attendance.undo_no_show', ref(principal, signupId, id));
const setHours = (principal: Principal, signupId: string, id: string, hoursServed: unknown) =>
  h.stack.bus.request('signups.attendance.update', { ...ref(principal, signupId, id), input: { hoursServed } as { hoursServed: number } });
const attendance = (principal: Principal, signupId: string) => h.stack.bus.request('signups.attendance.get', { principal, signupId });
const report = (principal: Principal, from: string, to: string) =>
  h.stack.bus.request('signups.reports.hours', { principal, query: { from, to } });

/** A published signup with a slot of 09:00 to 11:30, one without times, and an item. */
async function shifts(owner: Principal, signup: Parameters<AppHarness['signup']>[1] = {}) {
  const {
    signup: created,
    slots,
    items,
  } = await h.signup(owner, {
    slots: [
      { title: 'Morning', capacity: 5, startTime: '2027-03-01T09:00:00Z', endTime: '2027-03-01T11:30:00Z' },
      { title: 'Whenever', capacity: 5 },
    ],
    items: [{ name: 'Cups', quantityNeeded: 5 }],
    ...signup,
  });
  return { signup: created, morning: slots[0]!, whenever: slots[1]!, cups: items[0]! };
}

/** The participant of a registration that confirmed or waitlisted a selection. */
const participantId = (result: RegistrationResultView) => result.confirmed[0]?.participantId ?? result.waitlisted[0]!.participantId;

/** Registers someone and answers their participant id. */
async function registered(signupId: string, selections: SelectionInput[] = [], email?: string): Promise<string> {
  const { confirmationToken } = await register(signupId, selections, email);
  return (await h.stack.bus.request('signups.registrations.get', { token: confirmationToken! })).participant.id;
}

describe('checking in', () => {
  it('checks a confirmed participant in, its hours by default the lengths of its slots that have times, and emits participant.checked_in', async () => {
    const owner = caller();
    const { signup, morning, whenever, cups } = await shifts(owner);
    const id = await registered(signup.id, [
      { type: 'slot', id: morning.id, quantity: 2 },
      { type: 'slot', id: whenever.id },
      { type: 'item', id: cups.id },
    ]);
    const before = Date.now();
    const checked = await checkIn(owner, signup.id, id);
    expect(checked).toMatchObject({ id, status: 'attended', hoursServed: 2.5, noShowAt: null });
    expect(Date.parse(checked.checkedInAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(checked.statusChangedAt).toBe(checked.checkedInAt);
    await eventually(() => expect(h.eventsFor(id, 'participant.checked_in')).toHaveLength(1));
    expect(h.eventsFor(id, 'participant.checked_in')[0]!.data).toMatchObject({
      status: 'attended',
      hoursServed: 2.5,
      organizationId: owner.organizationId,
    });
  });

  it('records 0 hours for a participant whose slots have no times, and the hours given instead of the default', async () => {
    const owner = caller();
    const { signup, morning, whenever } = await shifts(owner);
    const timeless = await registered(signup.id, [{ type: 'slot', id: whenever.id }]);
    const given = await registered(signup.id, [{ type: 'slot', id: morning.id }]);
    expect((await checkIn(owner, signup.id, timeless)).hoursServed).toBe(0);
    expect((await checkIn(owner, signup.id, given, { hoursServed: 3.75 })).hoursServed).toBe(3.75);
  });

  it('changes nothing when checked in again without hours, and only the hours when they are given', async () => {
    const owner = caller();
    const { signup, morning } = await shifts(owner);
    const id = await registered(signup.id, [{ type: 'slot', id: morning.id }]);
    const first = await checkIn(owner, signup.id, id);
    expect(await checkIn(owner, signup.id, id)).toEqual(first);
    const again = await checkIn(owner, signup.id, id, { hoursServed: 4 });
    expect(again).toMatchObject({ status: 'attended', checkedInAt: first.checkedInAt, hoursServed: 4 });
    await eventually(() => expect(h.eventsFor(id, 'participant.updated')).toHaveLength(1));
    expect(h.eventsFor(id, 'participant.checked_in')).toHaveLength(1);
  });

  it('refuses a participant waiting in line, offered a place or cancelled with 409, and changes nothing', async () => {
    const owner = caller();
    const { signup, slots } = await h.signup(owner, {
      signup: { waitlist: { enabled: true, mode: 'offer', offerMinutes: 30 } },
      slots: [{ title: 'Only', capacity: 1 }],
    });
    const S = { type: 'slot', id: slots[0]!.id } as const;
    const first = await register(signup.id, [S]);
    const second = await register(signup.id, [S]);
    const third = await register(signup.id, [S]);
    await h.stack.bus.request('signups.registrations.cancel', { token: first.confirmationToken! });
    const offered = participantId(second);
    const waiting = participantId(third);
    const cancelled = participantId(first);
    const statuses = await db.query(`SELECT id, status FROM signups.participants WHERE signup_id = $1 ORDER BY created_at`, [signup.id]);
    expect(statuses).toEqual([
      { id: cancelled, status: 'cancelled' },
      { id: offered, status: 'offered' },
      { id: waiting, status: 'waitlisted' },
    ]);
    for (const id of [cancelled, offered, waiting]) {
      for (const act of [checkIn(owner, signup.id, id), noShow(owner, signup.id, id)]) {
        expect(await problemOf(act)).toMatchObject({ code: 'conflict', detail: expect.stringContaining('only a confirmed participant') });
      }
    }
    const [{ count }] = await db.query(
      `SELECT count(*)::integer AS count FROM signups.participants WHERE signup_id = $1 AND (checked_in_at IS NOT NULL OR no_show_at IS NOT NULL)`,
      [signup.id],
    );
    expect(count).toBe(0);
  });

  it('is for the organizer only, with participants:write, and a participant of that signup', async () => {
    const organizationId = 'org_attendance_owner';
    const owner = caller({ organizationId });
    const { signup } = await shifts(owner);
    const other = await shifts(owner);
    const id = await registered(signup.id);
    expect((await problemOf(checkIn(caller(), signup.id, id))).code).toBe('forbidden');
    expect((await problemOf(checkIn(caller({ organizationId, livemode: true }), signup.id, id))).code).toBe('not_found');
    expect((await problemOf(checkIn(owner, other.signup.id, id))).code).toBe('not_found');
    expect((await problemOf(noShow(caller({ organizationId, scopes: ['participants:read'] }), signup.id, id))).code).toBe('scope_required');
    expect(await problemOf(checkIn(owner, signup.id, 'nope'))).toMatchObject({
      errors: [{ path: 'participantId', message: 'Invalid uuid' }],
    });
  });
});

describe('no-shows and undoing', () => {
  it('marks a no-show in place of a check-in, and a check-in in place of a no-show', async () => {
    const owner = caller();
    const { signup, morning } = await shifts(owner);
    const id = await registered(signup.id, [{ type: 'slot', id: morning.id }]);
    await checkIn(owner, signup.id, id);
    const missing = await noShow(owner, signup.id, id);
    expect(missing).toMatchObject({ status: 'no_show', checkedInAt: null, hoursServed: null, noShowAt: expect.any(String) });
    expect(await noShow(owner, signup.id, id)).toEqual(missing);
    expect(await checkIn(owner, signup.id, id)).toMatchObject({ status: 'attended', noShowAt: null, hoursServed: 2.5 });
    await eventually(() => expect(h.eventsFor(id, 'participant.checked_in')).toHaveLength(2));
    expect(h.eventsFor(id, 'participant.no_show')).toHaveLength(1);
  });

  it('undoes a check-in or a no-show back to confirmed, emits participant.updated, and answers a confirmed participant as it is', async () => {
    const owner = caller();
    const { signup, morning } = await shifts(owner);
    const id = await registered(signup.id, [{ type: 'slot', id: morning.id }]);
    await checkIn(owner, signup.id, id);
    const undone = await undoCheckIn(owner, signup.id, id);
    expect(undone).toMatchObject({ status: 'confirmed', checkedInAt: null, noShowAt: null, hoursServed: null });
    expect(await undoCheckIn(owner, signup.id, id)).toEqual(undone);
    expect(await undoNoShow(owner, signup.id, id)).toEqual(undone);
    await noShow(owner, signup.id, id);
    expect(await undoNoShow(owner, signup.id, id)).toMatchObject({ status: 'confirmed', noShowAt: null });
    await eventually(() => expect(h.eventsFor(id, 'participant.updated')).toHaveLength(2));
  });

  it('refuses to undo what was not done with 409: a check-in of a no-show, a no-show of someone checked in', async () => {
    const owner = caller();
    const { signup } = await shifts(owner);
    const id = await registered(signup.id);
    await noShow(owner, signup.id, id);
    expect(await problemOf(undoCheckIn(owner, signup.id, id))).toMatchObject({
      code: 'conflict',
      detail: expect.stringContaining('no_show'),
    });
    await checkIn(owner, signup.id, id);
    expect((await problemOf(undoNoShow(owner, signup.id, id))).code).toBe('conflict');
  });
});

describe('hours served', () => {
  it('changes the hours of a checked-in participant, and refuses one not checked in with 409', async () => {
    const owner = caller();
    const { signup } = await shifts(owner);
    const id = await registered(signup.id);
    expect((await problemOf(setHours(owner, signup.id, id, 2))).code).toBe('conflict');
    await checkIn(owner, signup.id, id);
    expect(await setHours(owner, signup.id, id, 1000)).toMatchObject({ hoursServed: 1000 });
    expect(await setHours(owner, signup.id, id, 0.25)).toMatchObject({ hoursServed: 0.25 });
  });

  it.each([
    [-0.01, 'Must be at least 0'],
    [1000.01, 'Must be at most 1000'],
    [1.005, 'At most 2 decimals'],
    ['2', 'Expected number'],
  ])('refuses %p hours with 422 on hoursServed: %s, storing nothing', async (hours, message) => {
    const owner = caller();
    const { signup } = await shifts(owner);
    const id = await registered(signup.id);
    await checkIn(owner, signup.id, id, { hoursServed: 1 });
    expect(await problemOf(setHours(owner, signup.id, id, hours))).toMatchObject({ errors: [{ path: 'hoursServed', message }] });
    const refused = await problemOf(checkIn(owner, signup.id, id, { hoursServed: hours as number }));
    expect(refused).toMatchObject({ errors: [{ path: 'hoursServed', message }] });
    const [row] = await db.query(`SELECT hours_served::float AS hours FROM signups.participants WHERE id = $1`, [id]);
    expect(row).toEqual({ hours: 1 });
  });
});

type Outcome = 'ok' | ProblemCode;

async function outcome(promise: Promise<unknown>): Promise<Outcome> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    if (err instanceof ProblemError) return err.code;
    throw err;
  }
}

describe('a check-in racing a cancellation', () => {
  it('ends in one outcome: checked in and then cancelled, or cancelled and the check-in refused; places given back once', async () => {
    const owner = caller();
    const { signup, morning } = await shifts(owner);
    const outcomes: Outcome[] = [];
    for (let round = 0; round < 12; round++) {
      const result = await register(signup.id, [{ type: 'slot', id: morning.id }]);
      const id = participantId(result);
      const [checked, cancelled] = await Promise.all([
        outcome(checkIn(owner, signup.id, id)),
        outcome(h.stack.bus.request('signups.registrations.cancel', { token: result.confirmationToken! }, TIMEOUT)),
      ]);
      expect(cancelled).toBe('ok');
      outcomes.push(checked);
      const [row] = await db.query(`SELECT status, checked_in_at IS NOT NULL AS "checkedIn" FROM signups.participants WHERE id = $1`, [id]);
      expect(row).toEqual({ status: 'cancelled', checkedIn: checked === 'ok' });
    }
    expect(outcomes.filter((o) => o !== 'ok' && o !== 'conflict')).toEqual([]);
    const [slot] = await db.query(`SELECT taken FROM signups.slots WHERE id = $1`, [morning.id]);
    expect(slot).toEqual({ taken: 0 });
  });
});

describe('GET /signups/{id}/attendance', () => {
  it('counts confirmed, attended and no-shows, the attendance rate, and the hours of each participant checked in', async () => {
    const owner = caller();
    const { signup, morning } = await shifts(owner);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await registered(signup.id, [{ type: 'slot', id: morning.id }]));
    const [a, b, c, d] = ids as [string, string, string, string];
    const first = await checkIn(owner, signup.id, a);
    const second = await checkIn(owner, signup.id, b, { hoursServed: 1.25 });
    await noShow(owner, signup.id, c);
    await h.stack.bus.request('signups.participants.delete', { principal: owner, signupId: signup.id, id: d });
    const view = await attendance(owner, signup.id);
    expect(view).toEqual({
      signupId: signup.id,
      confirmed: 1,
      attended: 2,
      noShow: 1,
      expected: 4,
      attendanceRate: 0.6667,
      hoursServed: {
        total: 3.75,
        participants: [first, second].map((p: ParticipantView) => ({
          participantId: p.id,
          name: p.name,
          email: p.email,
          checkedInAt: p.checkedInAt,
          hoursServed: p.hoursServed,
        })),
        truncated: false,
      },
    });
  });

  it('lists the first 1000 checked in and says the list is cut, while the total counts everyone', async () => {
    const owner = caller();
    const { signup } = await shifts(owner);
    await db.query(
      `INSERT INTO signups.participants (id, signup_id, name, email, token_hash, status, checked_in_at, hours_served)
       SELECT gen_random_uuid(), $1::uuid, 'Volunteer ' || n, 'v' || n || '@example.com', md5($1::text || n), 'attended',
              timestamptz '2027-01-01T10:00:00Z' + n * interval '1 second', 0.5
       FROM generate_series(1, 1001) AS n`,
      [signup.id],
    );
    const { hoursServed } = await attendance(owner, signup.id);
    expect(hoursServed).toMatchObject({ total: 500.5, truncated: true });
    expect(hoursServed.participants).toHaveLength(1000);
    expect(hoursServed.participants[999]!.name).toBe('Volunteer 1000');
  });

  it('has no attendance rate before anyone is checked in or marked, and is for the organizer with participants:read', async () => {
    const organizationId = 'org_attendance_reader';
    const owner = caller({ organizationId });
    const { signup } = await shifts(owner);
    await registered(signup.id);
    expect(await attendance(owner, signup.id)).toMatchObject({
      confirmed: 1,
      expected: 1,
      attendanceRate: null,
      hoursServed: { total: 0 },
    });
    expect((await problemOf(attendance(caller(), signup.id))).code).toBe('forbidden');
    expect((await problemOf(attendance(caller({ organizationId, scopes: ['participants:write'] }), signup.id))).code).toBe(
      'scope_required',
    );
  });
});

describe('GET /reports/hours', () => {
  const day = (offset: number) => daysFromNow(offset).slice(0, 10);

  it("sums the hours of the signups of the caller's organization and mode whose eventDate is in the range, by signup and by email", async () => {
    const owner = caller();
    const inside = await shifts(owner, { signup: { eventDate: `${day(40)}T23:59:59.999Z`, title: 'Late' } });
    const early = await shifts(owner, { signup: { eventDate: `${day(35)}T00:00:00.000Z`, title: 'Early' } });
    const after = await shifts(owner, { signup: { eventDate: `${day(41)}T00:00:00.000Z` } });
    const before = await shifts(owner, { signup: { eventDate: `${day(34)}T23:59:59.999Z` } });
    const live = await shifts(caller({ organizationId: owner.organizationId, livemode: true }), {
      signup: { eventDate: `${day(36)}T12:00:00.000Z` },
    });
    const strangerOwner = caller();
    const stranger = await shifts(strangerOwner, { signup: { eventDate: `${day(36)}T12:00:00.000Z` } });
    const attend = async (principal: Principal, signupId: string, email: string, hoursServed: number) => {
      await checkIn(principal, signupId, await registered(signupId, [], email), { hoursServed });
    };
    await attend(owner, inside.signup.id, 'ana@example.com', 2.5);
    await attend(owner, inside.signup.id, 'ben@example.com', 1);
    await attend(owner, early.signup.id, 'ANA@example.com', 3.25);
    await noShow(owner, early.signup.id, await registered(early.signup.id));
    await attend(owner, after.signup.id, 'ana@example.com', 100);
    await attend(owner, before.signup.id, 'ana@example.com', 100);
    await attend(caller({ organizationId: owner.organizationId, livemode: true }), live.signup.id, 'ana@example.com', 100);
    await attend(strangerOwner, stranger.signup.id, 'ana@example.com', 100);
    const empty = await shifts(owner, { signup: { eventDate: `${day(37)}T12:00:00.000Z`, title: 'Nobody came' } });

    expect(await report(owner, day(35), day(40))).toEqual({
      from: day(35),
      to: day(40),
      totalHours: 6.75,
      signups: [
        { signupId: early.signup.id, title: 'Early', eventDate: early.signup.eventDate, attended: 1, hoursServed: 3.25 },
        { signupId: empty.signup.id, title: 'Nobody came', eventDate: empty.signup.eventDate, attended: 0, hoursServed: 0 },
        { signupId: inside.signup.id, title: 'Late', eventDate: inside.signup.eventDate, attended: 2, hoursServed: 3.5 },
      ],
      participants: [
        { email: 'ana@example.com', signups: 2, hoursServed: 5.75 },
        { email: 'ben@example.com', signups: 1, hoursServed: 1 },
      ],
      truncated: false,
    });
  });

  it('takes a range of one day, and of up to 366 days', async () => {
    const owner = caller();
    expect(await report(owner, '2027-02-01', '2027-02-01')).toEqual({
      from: '2027-02-01',
      to: '2027-02-01',
      totalHours: 0,
      signups: [],
      participants: [],
      truncated: false,
    });
    expect((await report(owner, '2028-01-01', '2028-12-31')).signups).toEqual([]);
  });

  it.each([
    ['2027-02-02', '2027-02-01', 'to', 'Must not be before from'],
    ['2027-01-01', '2028-01-02', 'to', 'Must be at most 366 days from from'],
    ['2027-02-30', '2027-03-01', 'from', 'Invalid date: expected YYYY-MM-DD, e.g. 2026-06-01'],
    ['2027-02-01', '2027-02-01T00:00:00Z', 'to', 'Invalid date: expected YYYY-MM-DD, e.g. 2026-06-01'],
  ])('refuses from %s to %s with 422 on %s: %s', async (from, to, path, message) => {
    expect(await problemOf(report(caller(), from, to))).toMatchObject({ code: 'validation_failed', errors: [{ path, message }] });
  });

  it('needs participants:read: it lists people, which analytics:read alone (a member) may not read', async () => {
    expect((await problemOf(report(caller({ scopes: ['analytics:read'] }), '2027-01-01', '2027-01-02'))).code).toBe('scope_required');
  });
});
