import type { CalendarEvent } from './calendar.js';
import { cleanLine, cleanText, TEXT_LIMITS } from './text.js';

const DAY_MS = 86_400_000;

/** The instants a link names: its end, or its start again when it has none (a link cannot leave it out). */
function span(event: CalendarEvent): { start: Date; end: Date } {
  const start = new Date(event.start);
  const end = event.end === undefined ? new Date(start.getTime() + (event.allDay ? DAY_MS : 0)) : new Date(event.end);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw new RangeError('calendar link needs dates');
  return { start, end };
}

/** The day of an instant in a zone, as YYYY-MM-DD. */
function dayIn(instant: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

/** A known IANA zone, or UTC. */
function zoneOrUtc(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** What both links carry: the title, the description (cut shorter, a link has to stay short) and the place. */
function texts(event: CalendarEvent): { title: string; details: string; location: string } {
  return {
    title: cleanLine(event.summary, TEXT_LIMITS.summary),
    details: cleanText(event.description ?? '', TEXT_LIMITS.linkDescription),
    location: cleanLine(event.location ?? '', TEXT_LIMITS.location),
  };
}

/** Google Calendar's event template: opens a new event with the fields filled in, for the person to save. */
export function googleCalendarLink(event: CalendarEvent): string {
  const { start, end } = span(event);
  const zone = zoneOrUtc(event.timeZone);
  const basic = (instant: Date) =>
    instant
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  const dates = event.allDay
    ? `${dayIn(start, zone).replace(/-/g, '')}/${dayIn(end, zone).replace(/-/g, '')}`
    : `${basic(start)}/${basic(end)}`;
  const { title, details, location } = texts(event);
  const params = new URLSearchParams({ action: 'TEMPLATE', text: title, dates, ctz: zone });
  if (details) params.set('details', details);
  if (location) params.set('location', location);
  return `https://calendar.google.com/calendar/render?${params}`;
}

/** Outlook on the web's compose deeplink (outlook.live.com): opens a new event with the fields filled in. */
export function outlookCalendarLink(event: CalendarEvent): string {
  const { start, end } = span(event);
  const zone = zoneOrUtc(event.timeZone);
  const { title, details, location } = texts(event);
  const params = new URLSearchParams({ path: '/calendar/action/compose', rru: 'addevent', subject: title });
  if (event.allDay) {
    params.set('startdt', dayIn(start, zone));
    params.set('enddt', dayIn(end, zone));
    params.set('allday', 'true');
  } else {
    params.set('startdt', start.toISOString());
    params.set('enddt', end.toISOString());
  }
  if (details) params.set('body', details);
  if (location) params.set('location', location);
  return `https://outlook.live.com/calendar/0/deeplink/compose?${params}`;
}
