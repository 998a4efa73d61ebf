import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { cloudEvent, type EventMap, newPrefixedId, type SignupView } from '#libs/contracts';
import type { RunningApp } from '#libs/runtime';
import { createTestStack, eventually, participantEventData, type TestStack } from '#libs/testing';
import { remindersServiceApp } from '../index.js';

const ORG = newPrefixedId('org');

function signup(overrides: Partial<SignupView> = {}): SignupView {
  return {
    id: randomUUID(),
    slug: 'potluck-abc123',
    title: 'Potluck',
    description: null,
    status: 'published',
    eventDate: '2026-12-05T17:00:00.000Z',
    timeZone: 'UTC',
    location: null,
    maxParticipants: null,
    requiresPhone: true,
    signupCloseDate: null,
    reminderHoursBefore: 24,
    waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
    seriesId: null,
    organizationId: ORG,
    participantCount: 0,
    publicUrl: 'https://signups.example.test/s/potluck-abc123',
    livemode: true,
    createdAt: '2026-11-22T10:00:00.000Z',
    updatedAt: '2026-11-22T10:00:00.000Z',
    publishedAt: '2026-11-22T10:00:00.000Z',
    closedAt: null,
    questions: [],
    ...overrides,
  };
}

function participant(signupId: string, overrides: Partial<EventMap['participant.registered']> = {}): EventMap['participant.registered'] {
  return participantEventData(signupId, ORG, overrides);
}

/** An event as the signups-service publishes it, at `time`. */
function event<T extends keyof EventMap>(type: T, data: EventMap[T], time: string) {
  return { ...cloudEvent('signups-service', type, data, { orgid: ORG, livemode: true }), time };
}

describe('contacts projection', () => {
  let stack: TestStack;
  let app: RunningApp;
  let db: DataSource;

  beforeAll(async () => {
    stack = await createTestStack('reminders_contacts', { transport: 'nats' });
    app = await stack.boot(remindersServiceApp);
    db = app.context.dataSource!;
  });

  afterAll(() => stack.close());

  const contact = async (id: string) =>
    (
      await db.query<{ name: string; phone: string | null; email: string; active: boolean }[]>(
        `SELECT name, phone, email, active FROM reminders.contacts WHERE participant_id = $1`,
        [id],
      )
    )[0];
  const signupRow = async (id: string) =>
    (
      await db.query<{ title: string; status: string; time_zone: string; reminder_hours_before: number; deleted: boolean }[]>(
        `SELECT title, status, time_zone, reminder_hours_before, deleted FROM reminders.signups WHERE id = $1`,
        [id],
      )
    )[0];

  it('records signups and participants with their phones and email addresses, and deactivates a canceled participant', async () => {
    const s = signup();
    const p = participant(s.id);
    await stack.bus.publish(event('signup.published', s, '2026-11-22T10:00:00.000Z'));
    await stack.bus.publish(event('participant.registered', p, '2026-11-22T10:01:00.000Z'));
    await eventually(async () =>
      expect(await contact(p.id)).toEqual({ name: 'Ana', phone: '+14155550123', email: 'ana@example.com', active: true }),
    );
    await eventually(async () =>
      expect(await signupRow(s.id)).toEqual({
        title: 'Potluck',
        status: 'published',
        time_zone: 'UTC',
        reminder_hours_before: 24,
        deleted: false,
      }),
    );

    await stack.bus.publish(
      event('participant.updated', { ...p, phone: null, name: 'Ana B.', email: 'ana.b@example.com' }, '2026-11-22T10:02:00.000Z'),
    );
    await eventually(async () =>
      expect(await contact(p.id)).toEqual({ name: 'Ana B.', phone: null, email: 'ana.b@example.com', active: true }),
    );
    await stack.bus.publish(event('participant.canceled', { ...p, status: 'cancelled' }, '2026-11-22T10:03:00.000Z'));
    await eventually(async () => expect(await contact(p.id)).toMatchObject({ active: false }));
  });

  it('keeps the status of a participant waiting in a line or holding an offer: active (registered), texted only once confirmed', async () => {
    const s = signup();
    const p = participant(s.id, { status: 'waitlisted' });
    const statusOf = async () =>
      (await db.query<{ status: string }[]>(`SELECT status FROM reminders.contacts WHERE participant_id = $1`, [p.id]))[0]?.status;
    await stack.bus.publish(event('signup.published', s, '2026-11-22T10:00:00.000Z'));
    await stack.bus.publish(event('participant.registered', p, '2026-11-22T10:01:00.000Z'));
    await eventually(async () => expect([await statusOf(), (await contact(p.id))?.active]).toEqual(['waitlisted', true]));
    await stack.bus.publish(event('participant.offered', { ...p, status: 'offered' }, '2026-11-22T10:02:00.000Z'));
    await eventually(async () => expect(await statusOf()).toBe('offered'));
    await stack.bus.publish(event('participant.promoted', { ...p, status: 'confirmed' }, '2026-11-22T10:03:00.000Z'));
    await eventually(async () => expect(await statusOf()).toBe('confirmed'));
  });

  it('applies each event once, and never lets an older event overwrite a newer one', async () => {
    const s = signup();
    const p = participant(s.id);
    const newer = event('participant.updated', { ...p, name: 'Newer' }, '2026-11-22T11:00:00.000Z');
    const older = event('participant.registered', { ...p, name: 'Older' }, '2026-11-22T10:00:00.000Z');
    await stack.bus.publish(newer);
    await stack.bus.publish(older);
    await stack.bus.publish(newer);
    const applied = (id: string) =>
      db
        .query<{ count: number }[]>(`SELECT count(*)::int AS count FROM reminders.processed_events WHERE event_id = $1`, [id])
        .then(([row]) => row!.count);
    await eventually(async () => expect([await applied(newer.id), await applied(older.id)]).toEqual([1, 1]));
    expect(await contact(p.id)).toMatchObject({ name: 'Newer' });
  });

  it("keeps each signup's time zone from its latest event", async () => {
    const s = signup({ timeZone: 'America/New_York' });
    await stack.bus.publish(event('signup.updated', { ...s, timeZone: 'Europe/Berlin' }, '2026-11-22T10:05:00.000Z'));
    await stack.bus.publish(event('signup.published', s, '2026-11-22T10:00:00.000Z'));
    await eventually(async () => expect(await signupRow(s.id)).toMatchObject({ time_zone: 'Europe/Berlin' }));
    await stack.bus.publish(event('signup.updated', { ...s, timeZone: 'Asia/Tokyo' }, '2026-11-22T10:06:00.000Z'));
    await eventually(async () => expect(await signupRow(s.id)).toMatchObject({ time_zone: 'Asia/Tokyo' }));
  });

  it("keeps each signup's reminderHoursBefore from its latest event", async () => {
    const s = signup({ reminderHoursBefore: 48 });
    await stack.bus.publish(event('signup.updated', { ...s, reminderHoursBefore: 0 }, '2026-11-22T10:05:00.000Z'));
    await stack.bus.publish(event('signup.published', s, '2026-11-22T10:00:00.000Z'));
    await eventually(async () => expect(await signupRow(s.id)).toMatchObject({ reminder_hours_before: 0 }));
    await stack.bus.publish(event('signup.updated', { ...s, reminderHoursBefore: 336 }, '2026-11-22T10:06:00.000Z'));
    await eventually(async () => expect(await signupRow(s.id)).toMatchObject({ reminder_hours_before: 336 }));
  });

  it('takes an event from before reminderHoursBefore (none in it): 24 for a new signup, and a known one keeps its own', async () => {
    const { reminderHoursBefore: _none, ...before } = signup();
    await stack.bus.publish(event('signup.published', before as SignupView, '2026-11-22T10:00:00.000Z'));
    await eventually(async () => expect(await signupRow(before.id)).toMatchObject({ status: 'published', reminder_hours_before: 24 }));
    const known = signup({ reminderHoursBefore: 72 });
    await stack.bus.publish(event('signup.published', known, '2026-11-22T10:00:00.000Z'));
    await eventually(async () => expect(await signupRow(known.id)).toMatchObject({ reminder_hours_before: 72 }));
    const { reminderHoursBefore: _dropped, ...older } = { ...known, title: 'Renamed' };
    await stack.bus.publish(event('signup.updated', older as SignupView, '2026-11-22T10:01:00.000Z'));
    await eventually(async () => expect(await signupRow(known.id)).toMatchObject({ title: 'Renamed', reminder_hours_before: 72 }));
  });

  it('marks a deleted signup and deactivates its contacts', async () => {
    const s = signup();
    const p = participant(s.id);
    await stack.bus.publish(event('signup.published', s, '2026-11-22T10:00:00.000Z'));
    await stack.bus.publish(event('participant.registered', p, '2026-11-22T10:01:00.000Z'));
    await eventually(async () => expect(await contact(p.id)).toMatchObject({ active: true }));
    await stack.bus.publish(event('signup.deleted', s, '2026-11-22T10:05:00.000Z'));
    await eventually(async () => expect(await signupRow(s.id)).toMatchObject({ deleted: true }));
    expect(await contact(p.id)).toMatchObject({ active: false });
  });

  it('catches up after a restart with the events published while it was down', async () => {
    await app.close();
    const s = signup({ title: 'While down' });
    const p = participant(s.id, { name: 'Late' });
    await stack.bus.publish(event('signup.published', s, '2026-11-22T10:00:00.000Z'));
    await stack.bus.publish(event('participant.registered', p, '2026-11-22T10:01:00.000Z'));
    app = await stack.boot(remindersServiceApp);
    db = app.context.dataSource!;
    // An event the server handed to the closed member's last pull request comes back only after
    // the consumer's ack wait (30 s), so catching up may take that long.
    const caughtUp = 40_000;
    await eventually(
      async () => expect(await contact(p.id)).toMatchObject({ name: 'Late', phone: '+14155550123', active: true }),
      caughtUp,
    );
    await eventually(async () => expect(await signupRow(s.id)).toMatchObject({ title: 'While down' }), caughtUp);
  }, 60_000);
});
