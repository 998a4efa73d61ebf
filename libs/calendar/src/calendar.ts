import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import {
  escape,
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendar,
  ICalCalendarMethod,
  type ICalDateTimeValue,
  type ICalDayJsStub,
  type ICalEventData,
  ICalEventStatus,
} from 'ical-generator';
import { cleanLine, cleanText, TEXT_LIMITS } from './text.js';

/** PUBLISH: a feed or a download; REQUEST: an invitation (or its update); CANCEL: takes the events out of the calendar. */
export type CalendarMethod = 'PUBLISH' | 'REQUEST' | 'CANCEL';
export type EventStatus = 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';

export interface CalendarEvent {
  /** Stable across every version of the event: a client replaces the event of this UID with a later SEQUENCE. */
  uid: string;
  /** Grows with every change of the event's time, title or place (sequenceOf). */
  sequence: number;
  start: Date | string;
  /** Without it the event ends as it starts (RFC 5545), or lasts its day when allDay. */
  end?: Date | string;
  allDay?: boolean;
  /** IANA zone the times are written in (with its VTIMEZONE); UTC is written with Z. */
  timeZone: string;
  summary: string;
  description?: string;
  location?: string;
  url?: string;
  status?: EventStatus;
  /** When the event last changed (LAST-MODIFIED). */
  lastModified?: Date | string;
}

export interface CalendarPerson {
  name: string;
  email: string;
}

export interface CalendarInput {
  method?: CalendarMethod;
  /** The calendar's name, as a client shows a subscription. */
  name: string;
  events: CalendarEvent[];
  /** Required by invitations (REQUEST, CANCEL): who sends them. */
  organizer?: CalendarPerson;
  /** The person an invitation is for, on every event. */
  attendee?: CalendarPerson;
}

const METHODS: Record<CalendarMethod, ICalCalendarMethod> = {
  PUBLISH: ICalCalendarMethod.PUBLISH,
  REQUEST: ICalCalendarMethod.REQUEST,
  CANCEL: ICalCalendarMethod.CANCEL,
};

const STATUSES: Record<EventStatus, ICalEventStatus> = {
  CONFIRMED: ICalEventStatus.CONFIRMED,
  TENTATIVE: ICalEventStatus.TENTATIVE,
  CANCELLED: ICalEventStatus.CANCELLED,
};

/** UIDs are written as they are: visible ASCII only (RFC 5545 recommends at most 255 octets). */
const UID = /^[\x21-\x7e]{1,255}$/;
/** Names of UTC, written with Z rather than with a zone of their own. */
const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/Universal', 'Universal', 'Etc/Zulu', 'Zulu', 'GMT', 'Etc/GMT']);

/**
 * A zone the times can be written in with a VTIMEZONE: one the runtime knows (Intl) and the
 * VTIMEZONE data has. Anything else (UTC's names, an unknown name, a zone newer than the data) is
 * written in UTC, which names the same instants.
 */
function writableZone(zone: string): string | null {
  if (UTC_NAMES.has(zone)) return null;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    return null;
  }
  return getVtimezoneComponent(zone) ? zone : null;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `zone` at an instant, as the tokens ical-generator formats (YYYYMMDD, HHmmss). */
function wallClock(instant: Date, zone: string): Record<string, string> {
  let format = wallClocks.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallClocks.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return { YYYY: parts.year!.padStart(4, '0'), MM: parts.month!, DD: parts.day!, HH: parts.hour!, mm: parts.minute!, ss: parts.second! };
}

/**
 * An instant that ical-generator writes as the wall clock of the event's zone (its Day.js form: it
 * calls tz(zone), then format). A native Date would be written in the server's own zone.
 */
class ZonedInstant implements ICalDayJsStub {
  constructor(
    private readonly instant: Date,
    private readonly zone = 'UTC',
  ) {}

  tz(zone?: string): ZonedInstant {
    return new ZonedInstant(this.instant, zone ?? this.zone);
  }

  utc(): ZonedInstant {
    return new ZonedInstant(this.instant, 'UTC');
  }

  format(pattern = 'YYYY-MM-DDTHH:mm:ss'): string {
    const clock = wallClock(this.instant, this.zone);
    return pattern.replace(/YYYY|MM|DD|HH|mm|ss/g, (token) => clock[token]!);
  }

  isValid(): boolean {
    return !Number.isNaN(this.instant.getTime());
  }

  toDate(): Date {
    return this.instant;
  }

  toJSON(): string {
    return this.instant.toISOString();
  }
}

function instantOf(value: Date | string, field: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`calendar event ${field} is not a date`);
  return date;
}

function httpUrl(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RangeError('calendar event url must be http(s)');
  return url.href;
}

function person(who: CalendarPerson): { name: string; email: string } {
  return { name: cleanLine(who.name, TEXT_LIMITS.person), email: cleanLine(who.email, TEXT_LIMITS.email).replace(/\s/g, '') };
}

function eventData(event: CalendarEvent, input: CalendarInput): ICalEventData {
  if (!UID.test(event.uid)) throw new RangeError('calendar event uid must be 1 to 255 visible ASCII characters');
  if (!Number.isSafeInteger(event.sequence) || event.sequence < 0)
    throw new RangeError('calendar event sequence must be a whole number ≥ 0');
  const zone = writableZone(event.timeZone);
  const at = (value: Date | string, field: string): ICalDateTimeValue => {
    const instant = instantOf(value, field);
    return zone ? new ZonedInstant(instant, zone) : instant;
  };
  const status = input.method === 'CANCEL' ? 'CANCELLED' : event.status;
  const description = event.description && cleanText(event.description, TEXT_LIMITS.description);
  const location = event.location && cleanLine(event.location, TEXT_LIMITS.location);
  return {
    id: event.uid,
    sequence: event.sequence,
    start: at(event.start, 'start'),
    ...(event.end !== undefined && { end: at(event.end, 'end') }),
    allDay: event.allDay ?? false,
    timezone: zone,
    summary: cleanLine(event.summary, TEXT_LIMITS.summary),
    ...(description && { description }),
    ...(location && { location }),
    ...(event.url !== undefined && { url: httpUrl(event.url) }),
    ...(status && { status: STATUSES[status] }),
    ...(event.lastModified !== undefined && { lastModified: instantOf(event.lastModified, 'lastModified') }),
    ...(input.organizer && { organizer: person(input.organizer) }),
    ...(input.attendee && {
      attendees: [{ ...person(input.attendee), role: ICalAttendeeRole.REQ, status: ICalAttendeeStatus.ACCEPTED, rsvp: false }],
    }),
  };
}

/**
 * An iCalendar object (RFC 5545) of the events, as text with CRLF line ends. Every zone an event
 * is written in comes with its VTIMEZONE; UTC times end in Z. Text from people is cleaned
 * (cleanText, cleanLine) and escaped and folded by ical-generator, so no value can start a
 * property of its own. A CANCEL marks every event CANCELLED.
 */
export function buildCalendar(input: CalendarInput): string {
  const calendar = new ICalCalendar({
    prodId: { company: 'Signup Platform', product: 'Calendars', language: 'EN' },
    // ical-generator writes the name as it is given (the events' text it escapes itself).
    name: escape(cleanLine(input.name, TEXT_LIMITS.name), false),
    ...(input.method && { method: METHODS[input.method] }),
    timezone: { name: null, generator: getVtimezoneComponent },
  });
  for (const event of input.events) calendar.createEvent(eventData(event, input));
  return calendar.toString();
}
