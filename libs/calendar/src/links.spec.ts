import type { CalendarEvent } from './calendar.js';
import { googleCalendarLink, outlookCalendarLink } from './links.js';
import { TEXT_LIMITS } from './text.js';

const event = (overrides: Partial<CalendarEvent> = {}): CalendarEvent => ({
  uid: 'slot-1@example.org',
  sequence: 1,
  start: '2027-06-01T16:00:00.000Z',
  end: '2027-06-01T18:30:00.000Z',
  timeZone: 'Europe/Berlin',
  summary: 'Potluck: Setup',
  description: 'Bring a dish.',
  location: 'Town hall',
  ...overrides,
});

const paramsOf = (link: string) => Object.fromEntries(new URL(link).searchParams);

describe('googleCalendarLink', () => {
  it('opens an event template with the title, UTC dates, the zone, details and place', () => {
    const link = new URL(googleCalendarLink(event()));
    expect(link.origin + link.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(paramsOf(link.href)).toEqual({
      action: 'TEMPLATE',
      text: 'Potluck: Setup',
      dates: '20270601T160000Z/20270601T183000Z',
      ctz: 'Europe/Berlin',
      details: 'Bring a dish.',
      location: 'Town hall',
    });
  });

  it('gives an all-day event its days in its zone, and an event without an end its start again', () => {
    expect(paramsOf(googleCalendarLink(event({ allDay: true, start: '2027-06-01T23:30:00Z', end: undefined }))).dates).toBe(
      '20270602/20270603',
    );
    expect(paramsOf(googleCalendarLink(event({ end: undefined }))).dates).toBe('20270601T160000Z/20270601T160000Z');
  });
});

describe('outlookCalendarLink', () => {
  it('opens the compose deeplink with subject, ISO times, body and place', () => {
    const link = new URL(outlookCalendarLink(event()));
    expect(link.origin + link.pathname).toBe('https://outlook.live.com/calendar/0/deeplink/compose');
    expect(paramsOf(link.href)).toEqual({
      path: '/calendar/action/compose',
      rru: 'addevent',
      subject: 'Potluck: Setup',
      startdt: '2027-06-01T16:00:00.000Z',
      enddt: '2027-06-01T18:30:00.000Z',
      body: 'Bring a dish.',
      location: 'Town hall',
    });
  });

  it('gives an all-day event its days and allday=true', () => {
    expect(paramsOf(outlookCalendarLink(event({ allDay: true, end: undefined })))).toMatchObject({
      startdt: '2027-06-01',
      enddt: '2027-06-02',
      allday: 'true',
    });
  });
});

describe('both links', () => {
  it('carry hostile text only as encoded parameter values, cleaned and cut', () => {
    const hostile = 'a&text=evil#frag"><script>\r\nx\u0000';
    for (const build of [googleCalendarLink, outlookCalendarLink]) {
      const link = build(event({ summary: hostile, location: hostile, description: `${hostile}${'d'.repeat(5000)}` }));
      expect(link).not.toMatch(/[<>"#\s]/);
      const params = paramsOf(link);
      expect(params.text ?? params.subject).toBe('a&text=evil#frag"><script> x');
      expect(params.location).toBe('a&text=evil#frag"><script> x');
      expect(Array.from(params.details ?? params.body!)).toHaveLength(TEXT_LIMITS.linkDescription);
      expect(new URL(link).searchParams.getAll('text').length + new URL(link).searchParams.getAll('subject').length).toBe(1);
    }
  });

  it('leave details and place out when the event has none, and write an unknown zone as UTC', () => {
    const params = paramsOf(googleCalendarLink(event({ description: undefined, location: undefined, timeZone: 'Not/AZone' })));
    expect(params).toEqual({ action: 'TEMPLATE', text: 'Potluck: Setup', dates: '20270601T160000Z/20270601T183000Z', ctz: 'UTC' });
  });
});
