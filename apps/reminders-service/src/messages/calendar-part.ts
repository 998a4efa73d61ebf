import type { ParticipantMessageContext } from '#libs/contracts';
import { oneLine } from './safe-text.js';
import { zoneOf } from './when.js';

/** One event of an invite, as plain data (libs/calendar turns it into iCalendar text). */
export interface CalendarEvent {
  /** Stable across every message to this participant about this slot (participantEventUid). */
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

/**
 * The UID of a participant's event: `participant-<participantId>-slot-<slotId>@<host>` for a slot
 * it holds, `participant-<participantId>@<host>` for the signup's date when it holds no timed slot.
 */
export function participantEventUid(participantId: string, slotId: string | null, host: string): string {
  return slotId === null ? `participant-${participantId}@${host}` : `participant-${participantId}-slot-${slotId}@${host}`;
}

/** SEQUENCE counts seconds since this instant: it fits a 32-bit integer (as calendars read it) until 2092. */
const SEQUENCE_EPOCH_MS = Date.UTC(2024, 0, 1);

/**
 * An event's SEQUENCE from the updatedAt of everything it shows (the signup, the slot, the
 * participant): it grows with each change, so a calendar takes the latest invite for the newer
 * one. Two changes within one second share a number.
 */
export function sequenceOf(updatedAt: string[]): number {
  return Math.max(0, Math.floor((Math.max(...updatedAt.map(Date.parse)) - SEQUENCE_EPOCH_MS) / 1000));
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
    description: [
      ...(context.manageUrl ? [`Change or cancel your registration: ${context.manageUrl}`] : []),
      `Event page: ${signup.publicUrl}`,
    ].join('\n'),
    url: context.manageUrl ?? signup.publicUrl,
  };
  const held = new Set(participant.selections.filter((s) => s.type === 'slot').map((s) => s.id));
  const slots = context.slots.filter((slot) => held.has(slot.id) && slot.startsAt !== null);
  if (slots.length === 0) {
    return [
      {
        uid: participantEventUid(participant.id, null, host),
        sequence: sequenceOf([signup.updatedAt, participant.updatedAt]),
        start: signup.eventDate,
        end: null,
        summary: title,
        ...shared,
      },
    ];
  }
  return slots.map((slot) => ({
    uid: participantEventUid(participant.id, slot.id, host),
    sequence: sequenceOf([signup.updatedAt, slot.updatedAt, participant.updatedAt]),
    start: slot.startsAt!,
    end: slot.endsAt,
    summary: `${title}: ${oneLine(slot.title)}`,
    ...shared,
  }));
}
