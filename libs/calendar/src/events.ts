import type { ItemView, ParticipantStatus, ParticipantView, PublicSignupView, SlotView } from '#libs/contracts';
import type { CalendarEvent, EventStatus } from './calendar.js';

/** What a slot's event is made of. */
export type CalendarSlot = Pick<SlotView, 'id' | 'title' | 'description' | 'startTime' | 'endTime' | 'updatedAt'>;

/** What a signup's events are made of (its zone: the one its times are shown in). */
export type CalendarSignup = Pick<
  PublicSignupView,
  'id' | 'title' | 'description' | 'location' | 'eventDate' | 'timeZone' | 'updatedAt' | 'publicUrl'
> & {
  slots: CalendarSlot[];
  /** Only to name the items a participant brings. */
  items?: Pick<ItemView, 'id' | 'name'>[];
};

/** What a participant's own events are made of. */
export type CalendarParticipant = Pick<ParticipantView, 'id' | 'status' | 'updatedAt' | 'selections'>;

/** SEQUENCE counts whole seconds from here: it fits a 32-bit integer (as clients expect) until 2092. */
const SEQUENCE_EPOCH = Date.UTC(2024, 0, 1);

/**
 * The SEQUENCE of an event that last changed at the latest of `changes` (the updatedAt of the
 * signup, its slot, the participant): whole seconds since 2024-01-01. Every change of a time,
 * title or place moves an updatedAt, so the number grows with each version, without a counter
 * to keep: a client takes the version with the larger one.
 */
export function sequenceOf(...changes: (Date | string)[]): number {
  const latest = Math.max(...changes.map((change) => new Date(change).getTime()));
  if (!Number.isFinite(latest)) throw new RangeError('sequenceOf needs dates');
  return Math.max(0, Math.floor((latest - SEQUENCE_EPOCH) / 1000));
}

/** The host name UIDs end with: that of PUBLIC_BASE_URL (without its port, which may change). */
export function uidHost(publicBaseUrl: string): string {
  return new URL(publicBaseUrl).hostname;
}

/**
 * Stable UIDs. The public feeds (a signup's, an organization's) name slots and signups; a
 * participant's own calendar and invitations name the participant too, so cancelling one
 * person's invitation never takes the public feed's event out of a calendar holding both.
 */
export const calendarUid = {
  slot: (host: string, slotId: string) => `slot-${slotId}@${host}`,
  signup: (host: string, signupId: string) => `signup-${signupId}@${host}`,
  participantSlot: (host: string, participantId: string, slotId: string) => `participant-${participantId}-slot-${slotId}@${host}`,
  participant: (host: string, participantId: string) => `participant-${participantId}@${host}`,
};

const latest = (...dates: string[]): string => new Date(Math.max(...dates.map((d) => Date.parse(d)))).toISOString();

function description(...parts: (string | null | undefined)[]): string {
  return parts.filter((part): part is string => Boolean(part?.trim())).join('\n\n');
}

/** A slot's time: its own, or the signup's date when it has none (then without an end). */
function slotTimes(signup: CalendarSignup, slot: CalendarSlot): Pick<CalendarEvent, 'start' | 'end'> {
  if (!slot.startTime) return { start: signup.eventDate };
  return { start: slot.startTime, ...(slot.endTime && { end: slot.endTime }) };
}

/** The events of a published signup: one per slot, or one at its date when it has no slot. */
export function signupEvents(signup: CalendarSignup, host: string): CalendarEvent[] {
  const shared = { timeZone: signup.timeZone, location: signup.location ?? undefined, url: signup.publicUrl, status: 'CONFIRMED' as const };
  if (signup.slots.length === 0) {
    return [
      {
        ...shared,
        uid: calendarUid.signup(host, signup.id),
        sequence: sequenceOf(signup.updatedAt),
        lastModified: signup.updatedAt,
        start: signup.eventDate,
        summary: signup.title,
        description: description(signup.description, signup.publicUrl),
      },
    ];
  }
  return signup.slots.map((slot) => ({
    ...shared,
    ...slotTimes(signup, slot),
    uid: calendarUid.slot(host, slot.id),
    sequence: sequenceOf(signup.updatedAt, slot.updatedAt),
    lastModified: latest(signup.updatedAt, slot.updatedAt),
    summary: `${signup.title}: ${slot.title}`,
    description: description(slot.description, signup.description, signup.publicUrl),
  }));
}

/** A cancelled registration's events are cancelled (a subscribed calendar drops them); one waiting for a place is tentative. */
const PARTICIPANT_STATUS: Record<ParticipantStatus, EventStatus> = {
  confirmed: 'CONFIRMED',
  attended: 'CONFIRMED',
  no_show: 'CONFIRMED',
  waitlisted: 'TENTATIVE',
  offered: 'TENTATIVE',
  cancelled: 'CANCELLED',
};

function bringing(signup: CalendarSignup, participant: CalendarParticipant): string | undefined {
  const names = new Map((signup.items ?? []).map((item) => [item.id, item.name]));
  const items = participant.selections
    .filter((s) => s.type === 'item' && names.has(s.id))
    .map((s) => (s.quantity === 1 ? names.get(s.id)! : `${names.get(s.id)!} (${s.quantity})`));
  return items.length ? `You bring: ${items.join(', ')}` : undefined;
}

/**
 * A participant's own events: one per slot they hold (a cancelled registration keeps the slots it
 * held), or one at the signup's date when they hold only items or nothing. The participant's
 * updatedAt counts in SEQUENCE, so a cancellation or a change of what they bring is a new version.
 */
export function participantEvents(signup: CalendarSignup, participant: CalendarParticipant, host: string): CalendarEvent[] {
  const shared = {
    timeZone: signup.timeZone,
    location: signup.location ?? undefined,
    url: signup.publicUrl,
    status: PARTICIPANT_STATUS[participant.status],
  };
  const items = bringing(signup, participant);
  const held = new Set(participant.selections.filter((s) => s.type === 'slot').map((s) => s.id));
  const slots = signup.slots.filter((slot) => held.has(slot.id));
  if (slots.length === 0) {
    return [
      {
        ...shared,
        uid: calendarUid.participant(host, participant.id),
        sequence: sequenceOf(signup.updatedAt, participant.updatedAt),
        lastModified: latest(signup.updatedAt, participant.updatedAt),
        start: signup.eventDate,
        summary: signup.title,
        description: description(items, signup.description, signup.publicUrl),
      },
    ];
  }
  return slots.map((slot) => ({
    ...shared,
    ...slotTimes(signup, slot),
    uid: calendarUid.participantSlot(host, participant.id, slot.id),
    sequence: sequenceOf(signup.updatedAt, slot.updatedAt, participant.updatedAt),
    lastModified: latest(signup.updatedAt, slot.updatedAt, participant.updatedAt),
    summary: `${signup.title}: ${slot.title}`,
    description: description(slot.description, items, signup.description, signup.publicUrl),
  }));
}
