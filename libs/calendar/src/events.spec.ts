import ICAL from 'ical.js';
import { buildCalendar } from './calendar.js';
import {
  type CalendarParticipant,
  type CalendarSignup,
  calendarUid,
  participantEvents,
  sequenceOf,
  signupEvents,
  uidHost,
} from './events.js';

const HOST = 'signups.example.org';
const SIGNUP_ID = '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6c';
const SETUP = '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a0001';
const CLEANUP = '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a0002';
const SALAD = '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a0003';
const PARTICIPANT = '0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a0004';

const signup = (overrides: Partial<CalendarSignup> = {}): CalendarSignup => ({
  id: SIGNUP_ID,
  title: 'Potluck',
  description: 'Bring a dish.',
  location: 'Town hall',
  eventDate: '2027-06-01T16:00:00.000Z',
  updatedAt: '2026-05-01T10:00:00.000Z',
  publicUrl: 'https://signups.example.org/s/potluck-x7k2',
  timeZone: 'Europe/Berlin',
  slots: [
    {
      id: SETUP,
      title: 'Setup',
      description: 'Tables and chairs.',
      startTime: '2027-06-01T15:00:00.000Z',
      endTime: '2027-06-01T16:00:00.000Z',
      updatedAt: '2026-05-02T10:00:00.000Z',
    },
    { id: CLEANUP, title: 'Cleanup', description: null, startTime: null, endTime: null, updatedAt: '2026-04-01T10:00:00.000Z' },
  ],
  items: [{ id: SALAD, name: 'Salad' }],
  ...overrides,
});

const participant = (overrides: Partial<CalendarParticipant> = {}): CalendarParticipant => ({
  id: PARTICIPANT,
  status: 'confirmed',
  updatedAt: '2026-05-03T10:00:00.000Z',
  selections: [{ type: 'slot', id: SETUP, quantity: 1 }],
  ...overrides,
});

/** The events of a calendar, read back by ical.js (its zones registered). */
function parsed(text: string): ICAL.Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  return calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
}

describe('sequenceOf', () => {
  it('counts whole seconds since 2024-01-01 of the latest change', () => {
    expect(sequenceOf('2024-01-01T00:00:00Z')).toBe(0);
    expect(sequenceOf('2024-01-01T00:01:40.999Z')).toBe(100);
    expect(sequenceOf(new Date('2026-05-01T10:00:00Z'), '2026-05-01T10:00:05Z')).toBe(sequenceOf('2026-05-01T10:00:05Z'));
  });

  it('grows with every later change, and stays a 32-bit number for decades', () => {
    expect(sequenceOf('2026-05-01T10:00:01Z')).toBeGreaterThan(sequenceOf('2026-05-01T10:00:00Z'));
    expect(sequenceOf('2090-12-31T23:59:59Z')).toBeLessThan(2 ** 31);
  });
});

describe('uidHost', () => {
  it('is the host name of PUBLIC_BASE_URL, without port or path', () => {
    expect(uidHost('http://localhost:3000/api/v1')).toBe('localhost');
    expect(uidHost('https://api.signups.example.org/api/v1')).toBe('api.signups.example.org');
  });
});

describe('signupEvents', () => {
  it('makes one event per slot with its stable UID, the signup’s title and place, and the slot’s times', () => {
    const events = parsed(buildCalendar({ name: 'Potluck', events: signupEvents(signup(), HOST) }));
    expect(events.map((e) => e.uid)).toEqual([`slot-${SETUP}@${HOST}`, `slot-${CLEANUP}@${HOST}`]);
    const [setup, cleanup] = events;
    expect(setup!.summary).toBe('Potluck: Setup');
    expect(setup!.location).toBe('Town hall');
    expect(setup!.description).toBe('Tables and chairs.\n\nBring a dish.\n\nhttps://signups.example.org/s/potluck-x7k2');
    expect(setup!.startDate.toJSDate().toISOString()).toBe('2027-06-01T15:00:00.000Z');
    expect(setup!.component.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('Europe/Berlin');
    expect(setup!.endDate.toJSDate().toISOString()).toBe('2027-06-01T16:00:00.000Z');
    // A slot without times takes the signup's date.
    expect(cleanup!.startDate.toJSDate().toISOString()).toBe('2027-06-01T16:00:00.000Z');
    expect(setup!.component.getFirstPropertyValue('status')).toBe('CONFIRMED');
  });

  it('makes one event at the signup’s date, named after the signup, when it has no slot', () => {
    const [only, ...rest] = signupEvents(signup({ slots: [] }), HOST);
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ uid: `signup-${SIGNUP_ID}@${HOST}`, start: '2027-06-01T16:00:00.000Z', summary: 'Potluck' });
    expect(only!.end).toBeUndefined();
    expect(only!.sequence).toBe(sequenceOf('2026-05-01T10:00:00.000Z'));
  });

  it('gives a slot whose time changed a larger SEQUENCE under the same UID', () => {
    const before = signupEvents(signup(), HOST)[0]!;
    const moved = signup();
    moved.slots[0] = { ...moved.slots[0]!, startTime: '2027-06-01T14:00:00.000Z', updatedAt: '2026-05-20T08:00:00.000Z' };
    const after = signupEvents(moved, HOST)[0]!;
    expect(after.uid).toBe(before.uid);
    expect(after.sequence).toBeGreaterThan(before.sequence);
    const [parsedBefore] = parsed(buildCalendar({ name: 'x', events: [before] }));
    const [parsedAfter] = parsed(buildCalendar({ name: 'x', events: [after] }));
    expect(parsedAfter!.sequence).toBeGreaterThan(parsedBefore!.sequence);
    expect(parsedAfter!.startDate.toJSDate().toISOString()).toBe('2027-06-01T14:00:00.000Z');
  });

  it('gives every event a larger SEQUENCE when the signup’s title or place changes', () => {
    const before = signupEvents(signup(), HOST);
    const after = signupEvents(signup({ location: 'Park', updatedAt: '2026-06-01T00:00:00.000Z' }), HOST);
    after.forEach((event, i) => expect(event.sequence).toBeGreaterThan(before[i]!.sequence));
  });
});

describe('participantEvents', () => {
  it('names the participant in the UID of each slot they hold, apart from the public feed’s', () => {
    const events = participantEvents(signup(), participant(), HOST);
    expect(events.map((e) => e.uid)).toEqual([`participant-${PARTICIPANT}-slot-${SETUP}@${HOST}`]);
    expect(events[0]!.uid).not.toBe(calendarUid.slot(HOST, SETUP));
    expect(events[0]).toMatchObject({ status: 'CONFIRMED', start: '2027-06-01T15:00:00.000Z', end: '2027-06-01T16:00:00.000Z' });
    expect(events[0]!.sequence).toBe(sequenceOf('2026-05-03T10:00:00.000Z'));
  });

  it('makes one event at the signup’s date naming what they bring when they hold only items', () => {
    const events = participantEvents(signup(), participant({ selections: [{ type: 'item', id: SALAD, quantity: 2 }] }), HOST);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ uid: `participant-${PARTICIPANT}@${HOST}`, start: '2027-06-01T16:00:00.000Z', summary: 'Potluck' });
    expect(events[0]!.description).toBe('You bring: Salad (2)\n\nBring a dish.\n\nhttps://signups.example.org/s/potluck-x7k2');
  });

  it('makes one event at the signup’s date when they hold nothing', () => {
    expect(participantEvents(signup(), participant({ selections: [] }), HOST).map((e) => e.uid)).toEqual([
      `participant-${PARTICIPANT}@${HOST}`,
    ]);
  });

  it('cancels the events of a cancelled registration with a larger SEQUENCE, and marks one waiting tentative', () => {
    const confirmed = participantEvents(signup(), participant(), HOST)[0]!;
    const cancelled = participantEvents(signup(), participant({ status: 'cancelled', updatedAt: '2026-05-04T00:00:00.000Z' }), HOST)[0]!;
    expect(cancelled).toMatchObject({ uid: confirmed.uid, status: 'CANCELLED' });
    expect(cancelled.sequence).toBeGreaterThan(confirmed.sequence);
    const [read] = parsed(buildCalendar({ name: 'x', events: [cancelled] }));
    expect(read!.component.getFirstPropertyValue('status')).toBe('CANCELLED');
    const waiting = participantEvents(signup(), participant({ status: 'waitlisted', selections: [] }), HOST)[0]!;
    expect(waiting.status).toBe('TENTATIVE');
  });

  it('ignores selections of slots the signup no longer has', () => {
    const events = participantEvents(signup(), participant({ selections: [{ type: 'slot', id: SALAD, quantity: 1 }] }), HOST);
    expect(events.map((e) => e.uid)).toEqual([`participant-${PARTICIPANT}@${HOST}`]);
  });
});
