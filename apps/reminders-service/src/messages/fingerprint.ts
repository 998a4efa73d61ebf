import { createHash } from 'node:crypto';
import type { ParticipantMessageContext } from '#libs/contracts';
import type { MessageKind } from './message-kind.js';

/** Bumped when what a fingerprint covers changes: every participant then counts as told nothing yet, once. */
const VERSION = 1;

const byKey =
  <T>(key: (value: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/**
 * A digest of what the participant's emails show of its registration: the signup's title, date,
 * time zone and location; its name, address and status; what it holds (with each slot's or item's
 * label and times) and the lines it is in (with any offer's deadline). Left out, as no email tells
 * of them: its phone, answers and hours served, the organizer's record of the day, its position in
 * a line (others move it), the description and every updatedAt. Equal fingerprints: an email would
 * tell nothing new.
 */
export function messageFingerprint(context: ParticipantMessageContext): string {
  const { signup, participant } = context;
  const slots = new Map(context.slots.map((slot) => [slot.id, slot]));
  const items = new Map(context.items.map((item) => [item.id, item]));
  const target = (type: string, id: string) => {
    if (type === 'slot') {
      const slot = slots.get(id);
      return slot ? [slot.title, slot.startsAt, slot.endsAt] : null;
    }
    return type === 'item' ? (items.get(id)?.name ?? null) : null;
  };
  const shown = {
    v: VERSION,
    signup: [signup.id, signup.title, signup.eventDate, signup.timeZone, signup.location],
    participant: [participant.name, participant.email, participant.status],
    holds: participant.selections
      .map((s) => [s.type, s.id, s.quantity, target(s.type, s.id)])
      .sort(byKey((h) => `${String(h[0])}:${String(h[1])}`)),
    waits: participant.waitlist
      .map((e) => [e.type, e.targetId, e.quantity, e.state, e.offerExpiresAt, target(e.type, e.targetId)])
      .sort(byKey((w) => `${String(w[0])}:${String(w[1])}`)),
  };
  return createHash('sha256').update(JSON.stringify(shown)).digest('hex');
}

/**
 * Whether an email of this kind tells the participant something: a reminder always does; any
 * other only when what it shows differs from the last email the participant was sent
 * (`lastSent`: that email's fingerprint, undefined when none was sent yet).
 */
export function isNews(kind: MessageKind, fingerprint: string, lastSent: string | undefined): boolean {
  return kind === 'reminder' || fingerprint !== lastSent;
}

/**
 * How recent a context is: the latest updatedAt of its signup, participant, slots and items. A
 * context read before another one (an edit handled on another replica first) is older: what it
 * would tell is no longer true.
 */
export function contextAsOf(context: ParticipantMessageContext): Date {
  const times = [context.signup.updatedAt, context.participant.updatedAt, ...context.slots, ...context.items].map((entry) =>
    Date.parse(typeof entry === 'string' ? entry : entry.updatedAt),
  );
  return new Date(Math.max(...times));
}
