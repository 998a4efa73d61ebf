import { calendarUid, sequenceOf } from '#libs/calendar';
import type { ParticipantMessageContext } from '#libs/contracts';
import { oneLine } from './safe-text.js';
import { zoneOf } from './when.js';

/** One event of an invite, as plain data (libs/calendar turns it into iCalendar text). */
export interface CalendarEvent {
  /** Stable across every message to this participant about this slot (libs/calendar's calendarUid). */
  uid: string;
  /** Grows with every change of what the event shows (sequenceOf). */
  sequence: number;
  /** ISO 8601 instants; end null when the slot or signup states no end. */
  start: string;
  end: string | null;
  /** IANA zone the event is shown in. */
  timeZone: string;
  summary: string;
  location: string | null;
  description: string;
  url: string;
}

/** An invite: REQUEST adds or updates the events, CANCEL removes them. */
export interface CalendarPart {
  method: 'REQUEST' | 'CANCEL';
  events: CalendarEvent[];
}

/** Whether the participant has a place at the event to put in a calendar: it holds something, or it asked for nothing and waits for nothing. */
function attends({ participant }: ParticipantMessageContext): boolean {
  if (participant.selections.length > 0) return true;
  return participant.waitlist.length === 0 && participant.status !== 'waitlisted' && participant.status !== 'offered';
}

/**
 * The participant's events: one per timed slot it holds (a cancelled participant keeps the
 * selections it held), else one for the signup's date; none while it holds no place.
 */
export function participantEvents(context: ParticipantMessageContext): CalendarEvent[] {
  if (!attends(context)) return [];
  const { signup, participant } = context;
  const host = new URL(signup.publicUrl).hostname;
  const title = oneLine(signup.title);
  const shared = {
    timeZone: zoneOf(signup.timeZone),
    location: signup.location === null ? null : oneLine(signup.location) || null,
    // Calendars are shared and synced to others' servers: the edit link (a secret) stays in the email.
    description: `Event page: ${signup.publicUrl}`,
    url: signup.publicUrl,
  };
  const held = new Set(participant.selections.filter((s) => s.type === 'slot').map((s) => s.id));
  const slots = context.slots.filter((slot) => held.has(slot.id) && slot.startsAt !== null);
  if (slots.length === 0) {
    return [
      {
        uid: calendarUid.participant(host, participant.id),
        sequence: sequenceOf(signup.updatedAt, participant.updatedAt),
        start: signup.eventDate,
        end: null,
        summary: title,
        ...shared,
      },
    ];
  }
  return slots.map((slot) => ({
    uid: calendarUid.participantSlot(host, participant.id, slot.id),
    sequence: sequenceOf(signup.updatedAt, slot.updatedAt, participant.updatedAt),
    start: slot.startsAt!,
    end: slot.endsAt,
    summary: `${title}: ${oneLine(slot.title)}`,
    ...shared,
  }));
}
