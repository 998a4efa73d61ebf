import type { ParticipantStatus } from '#libs/contracts';
import type { Kind } from '../signups/slot-item.js';
import type { WaitlistEntry } from '../waitlist/waitlist.js';
import type { AnswerChanges, Answers } from './answers.js';

/** One slot or item a participant holds, and how many places or units of it. */
export interface Selection {
  type: Kind;
  id: string;
  quantity: number;
}

/** A registration as the domain sees it. */
export interface Participant {
  id: string;
  signupId: string;
  name: string;
  email: string;
  phone: string | null;
  selections: Selection[];
  /** Keyed by question id, only the questions answered (removed questions' answers too). */
  answers: Answers;
  createdAt: Date;
  updatedAt: Date;
  remindedAt: Date | null;
  status: ParticipantStatus;
  statusChangedAt: Date;
  cancelledAt: Date | null;
  checkedInAt: Date | null;
  noShowAt: Date | null;
  /** Set at check-in, null otherwise. */
  hoursServed: number | null;
  /** The lines it is in (waiting or offered), in the order it joined them. */
  waitlist: WaitlistEntry[];
}

/** A registration to store, with its confirmation token's hash (the lookup) and the token sealed (for its emails). */
export type NewParticipant = Pick<Participant, 'id' | 'signupId' | 'name' | 'email' | 'phone' | 'answers'> & {
  tokenHash: string;
  sealedToken: string;
};

/** Statuses the organizer sets or a cancellation ends in: the waitlist no longer moves them. */
export const SETTLED_STATUSES: readonly ParticipantStatus[] = ['cancelled', 'attended', 'no_show'];

/** Contact fields an edit may change; null clears the phone, undefined leaves a field alone. */
export interface ContactChanges {
  name?: string;
  email?: string;
  phone?: string | null;
}

/** The fields of a participant's row an edit writes: contact fields, and the answers as the edit left them. */
export interface ParticipantFieldChanges extends ContactChanges {
  answers?: Answers;
}

/** An edit of a registration: contact fields, when given the selections that replace all others, and answers merged into the others. */
export interface RegistrationChanges extends ContactChanges {
  selections?: Selection[];
  answers?: AnswerChanges;
}
