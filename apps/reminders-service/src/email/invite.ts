import { buildCalendar, type CalendarPerson } from '#libs/calendar';
import type { EmailCalendarView, ParticipantMessageContext } from '#libs/contracts';
import type { CalendarPart } from '../messages/index.js';

/**
 * An email's invitation as iCalendar text (libs/calendar): REQUEST adds or updates the
 * participant's events, CANCEL takes them out, each by its stable UID and growing SEQUENCE. The
 * organization is the organizer and the participant the attendee, as mail clients expect of an
 * invitation. A withdrawal counts one more than the invitation of the same second, so a client
 * that got both in one second still takes the withdrawal as the later.
 */
export function inviteOf(part: CalendarPart, context: ParticipantMessageContext, organizer: CalendarPerson): EmailCalendarView {
  const ics = buildCalendar({
    method: part.method,
    name: context.signup.title,
    organizer,
    attendee: { name: context.participant.name, email: context.participant.email },
    events: part.events.map((event) => ({
      uid: event.uid,
      sequence: part.method === 'CANCEL' ? event.sequence + 1 : event.sequence,
      start: event.start,
      ...(event.end !== null && { end: event.end }),
      timeZone: event.timeZone,
      summary: event.summary,
      description: event.description,
      ...(event.location !== null && { location: event.location }),
      url: event.url,
      ...(part.method === 'CANCEL' && { status: 'CANCELLED' as const }),
    })),
  });
  return { method: part.method, ics };
}
