import type { EventType, ParticipantView } from '#libs/contracts';

/** What a participant's email is about. */
export const MESSAGE_KINDS = ['confirmation', 'change', 'cancellation', 'waitlisted', 'offer', 'promoted', 'reminder'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export type ParticipantEventType = Extract<EventType, `participant.${string}`>;

/** The edits of a signup or a slot that may move what its participants were told (the date, the place, a slot's times). */
export type SignupChangeEventType = Extract<EventType, 'signup.updated' | 'slot.updated'>;

/** The events a participant's email may answer. */
export type MailEventType = ParticipantEventType | SignupChangeEventType;

/** What the choice of a kind reads of a participant: the event's data, or better the context read when the message is made. */
export type ParticipantState = Pick<ParticipantView, 'status' | 'waitlist'>;

const holdsOffer = (participant: ParticipantState): boolean => participant.waitlist.some((entry) => entry.state === 'offered');

/**
 * What a participant is told when its registration first reaches an email: cancelled; offered a
 * place; waiting and holding nothing; or signed up (with any lines it also waits in).
 */
function stateKind(participant: ParticipantState): MessageKind {
  if (participant.status === 'cancelled') return 'cancellation';
  if (holdsOffer(participant)) return 'offer';
  if (participant.status === 'waitlisted') return 'waitlisted';
  return 'confirmation';
}

/**
 * The email a participant event calls for, or null (docs/decisions.md, "Participant email"). Give
 * it the participant as it is when the message is made (the message context's), not only as the
 * event carried it: a message that goes out later then tells what is true, and the fingerprint
 * (isNews) drops the second of two events that end in the same state.
 * - participant.registered: what the registration came to (stateKind): one message, whether its
 *   selections were taken, all wait in line (waitlisted, not confirmation and waitlisted), or some of each.
 * - participant.waitlisted: none. It is only ever emitted with participant.registered, in the same
 *   transaction, which tells it.
 * - participant.updated: a change, unless the organizer's record of the day moved (attended,
 *   no_show: hours, an undo) or it is cancelled (its participant.canceled tells it).
 * - participant.canceled: a cancellation.
 * - participant.offered: an offer, while one is held (one accepted or gone since is told by its own event).
 * - participant.promoted: promoted.
 * - participant.offer_expired: a change (the line it left), unless the expiry cancelled it:
 *   participant.canceled follows then.
 * - participant.checked_in, participant.no_show: none; the organizer's record of the day.
 * - signup.updated, slot.updated: a change, to a participant that is in (confirmed, waiting or
 *   offered), as for participant.updated; none once the day is recorded or the registration
 *   cancelled. Whether it tells the participant anything (a slot it does not hold, a description)
 *   is the fingerprint's to say.
 */
export function messageKindFor(type: MailEventType, participant: ParticipantState): MessageKind | null {
  switch (type) {
    case 'participant.registered':
      return stateKind(participant);
    case 'participant.canceled':
      return 'cancellation';
    case 'participant.updated':
    case 'signup.updated':
    case 'slot.updated':
      return participant.status === 'confirmed' || participant.status === 'waitlisted' || participant.status === 'offered'
        ? 'change'
        : null;
    case 'participant.offered':
      return holdsOffer(participant) ? 'offer' : null;
    case 'participant.promoted':
      return participant.status === 'cancelled' ? null : 'promoted';
    case 'participant.offer_expired':
      return participant.status === 'cancelled' ? null : 'change';
    case 'participant.waitlisted':
    case 'participant.checked_in':
    case 'participant.no_show':
      return null;
    default: {
      const unknown: never = type;
      throw new Error(`no message rule for ${String(unknown)}`);
    }
  }
}
