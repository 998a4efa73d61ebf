import ICAL from 'ical.js';
import { buildCalendar, type CalendarEvent, type CalendarInput } from './calendar.js';
import { TEXT_LIMITS } from './text.js';

/** Parses with a real parser (ical.js), each VTIMEZONE registered so TZIDs resolve as a client resolves them. */
function parse(text: string): { calendar: ICAL.Component; events: ICAL.Event[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(new ICAL.Timezone(zone));
  return { calendar, events: calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent)) };
}

const event = (overrides: Partial<CalendarEvent> = {}): CalendarEvent => ({
  uid: 'slot-0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6c@example.org',
  sequence: 7,
  start: '2027-06-01T16:00:00.000Z',
  end: '2027-06-01T18:30:00.000Z',
  timeZone: 'UTC',
  summary: 'Potluck: Setup',
  ...overrides,
});

const calendarOf = (input: Partial<CalendarInput> = {}) => buildCalendar({ name: 'Potluck', events: [event()], ...input });

/** The unfolded content lines of a calendar. */
const linesOf = (text: string): string[] => text.replace(/\r\n[ \t]/g, '').split('\r\n');

describe('buildCalendar', () => {
  it('writes UID, SEQUENCE, SUMMARY, times in UTC with Z, and CRLF line ends a parser reads back', () => {
    const text = calendarOf({ method: 'PUBLISH' });
    expect(text.split('\n').every((line, i, all) => i === all.length - 1 || line.endsWith('\r'))).toBe(true);
    const { calendar, events } = parse(text);
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    const [only] = events;
    expect(events).toHaveLength(1);
    expect(only!.uid).toBe('slot-0190f5d4-3c2a-7b1e-9a4f-1d2e3f4a5b6c@example.org');
    expect(only!.sequence).toBe(7);
    expect(only!.summary).toBe('Potluck: Setup');
    expect(only!.startDate.toJSDate().toISOString()).toBe('2027-06-01T16:00:00.000Z');
    expect(only!.endDate.toJSDate().toISOString()).toBe('2027-06-01T18:30:00.000Z');
    expect(linesOf(text)).toEqual(expect.arrayContaining(['DTSTART:20270601T160000Z', 'DTEND:20270601T183000Z']));
    expect(text).not.toContain('BEGIN:VTIMEZONE');
  });

  it('writes times in a zone with TZID and the zone’s VTIMEZONE, which resolve to the same instants', () => {
    const text = calendarOf({
      events: [event({ timeZone: 'Europe/Berlin' }), event({ uid: 'b@example.org', timeZone: 'America/New_York' })],
    });
    const lines = linesOf(text);
    expect(lines).toEqual(
      expect.arrayContaining([
        'DTSTART;TZID=Europe/Berlin:20270601T180000',
        'DTEND;TZID=Europe/Berlin:20270601T203000',
        'DTSTART;TZID=America/New_York:20270601T120000',
      ]),
    );
    const { calendar, events } = parse(text);
    expect(calendar.getAllSubcomponents('vtimezone').map((zone) => zone.getFirstPropertyValue('tzid'))).toEqual([
      'Europe/Berlin',
      'America/New_York',
    ]);
    for (const parsed of events) {
      expect(parsed.startDate.toJSDate().toISOString()).toBe('2027-06-01T16:00:00.000Z');
      expect(parsed.endDate.toJSDate().toISOString()).toBe('2027-06-01T18:30:00.000Z');
    }
  });

  it('writes one VTIMEZONE per zone however many events use it, in winter time too', () => {
    const winter = { start: '2027-01-10T09:00:00Z', end: '2027-01-10T10:00:00Z', timeZone: 'Europe/Berlin' };
    const text = calendarOf({ events: [event(winter), event({ ...winter, uid: 'b@example.org' })] });
    expect(text.match(/BEGIN:VTIMEZONE/g)).toHaveLength(1);
    expect(linesOf(text)).toContain('DTSTART;TZID=Europe/Berlin:20270110T100000');
    expect(parse(text).events[1]!.startDate.toJSDate().toISOString()).toBe('2027-01-10T09:00:00.000Z');
  });

  it('writes UTC, its other names, and a zone it cannot describe in UTC with Z', () => {
    for (const timeZone of ['UTC', 'Etc/UTC', 'GMT', 'Not/AZone', '']) {
      const text = calendarOf({ events: [event({ timeZone })] });
      expect({ timeZone, start: linesOf(text).find((l) => l.startsWith('DTSTART')) }).toEqual({
        timeZone,
        start: 'DTSTART:20270601T160000Z',
      });
      expect(text).not.toContain('VTIMEZONE');
    }
  });

  it('writes an all-day event as dates in its zone', () => {
    const text = calendarOf({
      events: [event({ allDay: true, start: '2027-06-01T23:30:00Z', end: undefined, timeZone: 'Europe/Berlin' })],
    });
    expect(linesOf(text)).toContain('DTSTART;VALUE=DATE:20270602');
    const [parsed] = parse(text).events;
    expect(parsed!.startDate.isDate).toBe(true);
    expect(parsed!.startDate.toString()).toBe('2027-06-02');
  });

  it('leaves DTEND out of an event without an end', () => {
    const text = calendarOf({ events: [event({ end: undefined })] });
    expect(text).not.toContain('DTEND');
    expect(parse(text).events[0]!.startDate.toJSDate().toISOString()).toBe('2027-06-01T16:00:00.000Z');
  });

  it('carries description, location, url, status and last modification', () => {
    const text = calendarOf({
      events: [
        event({
          description: 'Bring a dish.\nParking behind the hall.',
          location: 'Town hall, room 2; back door',
          url: 'https://signups.example.org/s/potluck-x7k2',
          status: 'TENTATIVE',
          lastModified: '2026-05-01T10:00:00Z',
        }),
      ],
    });
    const [parsed] = parse(text).events;
    expect(parsed!.description).toBe('Bring a dish.\nParking behind the hall.');
    expect(parsed!.location).toBe('Town hall, room 2; back door');
    expect(parsed!.component.getFirstPropertyValue('url')).toBe('https://signups.example.org/s/potluck-x7k2');
    expect(parsed!.component.getFirstPropertyValue('status')).toBe('TENTATIVE');
    expect(String(parsed!.component.getFirstPropertyValue('last-modified'))).toBe('2026-05-01T10:00:00Z');
  });

  it('keeps CR and LF in titles, names and places from starting properties of their own', () => {
    const hostile = 'Potluck\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil@x\nSUMMARY:Injected\rATTACH:http://x';
    const text = buildCalendar({
      name: `Feed\r\nX-INJECTED:1`,
      method: 'REQUEST',
      organizer: { name: 'Org\r\nX-ORG:1', email: 'org@example.org\r\nX-MAIL:1' },
      attendee: { name: 'Ana "A"\r\nX-ATT:1', email: 'ana@example.org' },
      events: [event({ summary: hostile, location: hostile, description: hostile })],
    });
    const lines = linesOf(text);
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.some((l) => /^(X-INJECTED|X-ORG|X-MAIL|X-ATT|ATTACH|UID:evil)/.test(l))).toBe(false);
    const { calendar, events } = parse(text);
    expect(events).toHaveLength(1);
    expect(events[0]!.summary).toBe('Potluck END:VEVENT BEGIN:VEVENT UID:evil@x SUMMARY:Injected ATTACH:http://x');
    expect(events[0]!.description).toBe('Potluck\nEND:VEVENT\nBEGIN:VEVENT\nUID:evil@x\nSUMMARY:Injected\nATTACH:http://x');
    expect(calendar.getFirstPropertyValue('name')).toBe('Feed X-INJECTED:1');
    expect(events[0]!.organizer).toBe('mailto:org@example.orgX-MAIL:1');
    expect(events[0]!.attendees[0]!.getParameter('cn')).toBe('Ana "A" X-ATT:1');
  });

  it('escapes commas, semicolons and backslashes, which read back as they were', () => {
    const summary = 'Salad, bread; and \\ cake';
    const text = calendarOf({ name: 'A, B; C', events: [event({ summary, description: summary, location: summary })] });
    // NAME (RFC 7986) is TEXT too; ical.js reads it as an unknown property, without unescaping.
    expect(linesOf(text)).toEqual(expect.arrayContaining(['SUMMARY:Salad\\, bread\\; and \\\\ cake', 'NAME:A\\, B\\; C']));
    const { events } = parse(text);
    expect(events[0]!.summary).toBe(summary);
    expect(events[0]!.description).toBe(summary);
    expect(events[0]!.location).toBe(summary);
  });

  it('drops control characters and replaces lone surrogates', () => {
    const text = calendarOf({ events: [event({ summary: 'Pot\u0000lu\u0007ck\u009b \ud800!', description: 'a\u0000b\tc\u2028d' })] });
    const [parsed] = parse(text).events;
    expect(parsed!.summary).toBe('Potluck \ufffd!');
    expect(parsed!.description).toBe('ab\tc\nd');
  });

  it('folds long lines at 75 octets without splitting a character, and cuts absurd lengths', () => {
    const long = 'Ünïcödé 🎉 '.repeat(2000);
    const text = calendarOf({ events: [event({ summary: long, description: long, location: long })] });
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const [parsed] = parse(text).events;
    expect(Array.from(parsed!.summary)).toHaveLength(TEXT_LIMITS.summary);
    expect(parsed!.summary.endsWith('…')).toBe(true);
    expect(Array.from(parsed!.description)).toHaveLength(TEXT_LIMITS.description);
    expect(Array.from(parsed!.location)).toHaveLength(TEXT_LIMITS.location);
    expect(long.startsWith(parsed!.summary.slice(0, -1))).toBe(true);
  });

  it('marks every event of a CANCEL cancelled, keeping UID and SEQUENCE', () => {
    const text = calendarOf({
      method: 'CANCEL',
      organizer: { name: 'Neighbours', email: 'org@example.org' },
      attendee: { name: 'Ana', email: 'ana@example.org' },
      events: [event({ status: 'CONFIRMED', sequence: 9 })],
    });
    const { calendar, events } = parse(text);
    expect(calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(events[0]!.uid).toBe(event().uid);
    expect(events[0]!.sequence).toBe(9);
    expect(events[0]!.component.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(events[0]!.organizer).toBe('mailto:org@example.org');
    expect(events[0]!.attendees.map((a) => String(a.getFirstValue()).toLowerCase())).toEqual(['mailto:ana@example.org']);
  });

  it('writes an invitation (REQUEST) with its organizer and attendee', () => {
    const text = calendarOf({
      method: 'REQUEST',
      organizer: { name: 'Neighbours, Inc.', email: 'org@example.org' },
      attendee: { name: 'Ana Lima', email: 'ana@example.org' },
    });
    const { calendar, events } = parse(text);
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(events[0]!.component.getFirstProperty('organizer')!.getParameter('cn')).toBe('Neighbours, Inc.');
    const [attendee] = events[0]!.attendees;
    expect(attendee!.getParameter('cn')).toBe('Ana Lima');
    expect(attendee!.getParameter('partstat')).toBe('ACCEPTED');
  });

  it('refuses a UID that is not visible ASCII, a negative or fractional SEQUENCE, a bad date and a url that is not http', () => {
    const refused: Partial<CalendarEvent>[] = [
      { uid: 'a b@example.org' },
      { uid: 'a\r\nX-Y:1@example.org' },
      { uid: '' },
      { uid: 'x'.repeat(256) },
      { sequence: -1 },
      { sequence: 1.5 },
      { start: 'not a date' },
      { end: 'not a date' },
      { url: 'javascript:alert(1)' },
    ];
    for (const overrides of refused) expect(() => calendarOf({ events: [event(overrides)] })).toThrow(RangeError);
  });
});
