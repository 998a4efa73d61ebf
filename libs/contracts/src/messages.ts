import type { ParticipantView } from './participants.js';
import type { SignupStatus } from './signups.js';
import type { WaitlistType } from './waitlist.js';

/** The most participants one signups.participants.messages request may name. */
export const MAX_MESSAGE_CONTEXTS = 100;

/** What a participant's email shows of the signup. */
export interface MessageSignup {
  id: string;
  title: string;
  description: string | null;
  location: string | null;
  /** ISO 8601 instant. */
  eventDate: string;
  /** IANA time zone in which the email states dates and times. */
  timeZone: string;
  publicUrl: string;
  status: SignupStatus;
  updatedAt: string;
  organizationId: string;
  livemode: boolean;
}

/** A slot the participant holds or waits for. */
export interface MessageSlot {
  id: string;
  title: string;
  startsAt: string | null;
  endsAt: string | null;
  updatedAt: string;
}

/** An item the participant brings or waits to bring. */
export interface MessageItem {
  id: string;
  name: string;
  updatedAt: string;
}

/**
 * The links of an offer the participant holds (an entry of participant.waitlist in state offered).
 * A GET never changes anything, so both lead to the registration page, at the offer, where its
 * Accept and Decline buttons are.
 */
export interface MessageOffer {
  entryId: string;
  type: WaitlistType;
  targetId: string;
  acceptUrl: string;
  declineUrl: string;
}

/** Everything an email to one participant needs, as it is now. */
export interface ParticipantMessageContext {
  signup: MessageSignup;
  participant: ParticipantView;
  /** The slots it holds (participant.selections) or waits for (participant.waitlist), by start time. */
  slots: MessageSlot[];
  /** The items it holds or waits for, in the signup's order. */
  items: MessageItem[];
  /**
   * `{origin}/r/{confirmationToken}`: the page to change or cancel the registration; null for a
   * participant registered before tokens were kept sealed (its emails carry no edit link).
   */
  manageUrl: string | null;
  /** The links of each offer it holds; empty without a manageUrl. */
  offers: MessageOffer[];
}
