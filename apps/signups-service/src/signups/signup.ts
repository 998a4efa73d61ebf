import type { Principal, SignupStatus, WaitlistMode } from '#libs/contracts';
import type { Question } from './question.js';

/** Whether registrations that do not fit join a line, and how a freed place reaches the first in it. */
export interface WaitlistSettings {
  enabled: boolean;
  mode: WaitlistMode;
  offerMinutes: number;
}

/** A signup as the domain sees it (the repository maps rows to it, the presenter maps it to views). */
export interface Signup {
  id: string;
  organizationId: string;
  livemode: boolean;
  slug: string;
  title: string;
  description: string | null;
  status: SignupStatus;
  eventDate: Date;
  /** The IANA zone people see its dates and times in: given, or its organization's when it was created. */
  timeZone: string;
  location: string | null;
  maxParticipants: number | null;
  requiresPhone: boolean;
  signupCloseDate: Date | null;
  /** How many hours before the event its participants get their automatic reminder; 0: none. */
  reminderHoursBefore: number;
  waitlist: WaitlistSettings;
  /** The series it belongs to (a duplicated signup and its copies); null until it is duplicated. */
  seriesId: string | null;
  /** Everyone admitted and not cancelled: confirmed, offered a place under maxParticipants, or waiting for a slot or item. */
  participantCount: number;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
  closedAt: Date | null;
  /** The questions it asks, in order. */
  questions: Question[];
}

/** Who a signup belongs to: what the events of its slots, items and participants carry. */
export type SignupRef = Pick<Signup, 'id' | 'organizationId' | 'livemode'>;

/** Published or closed: visible to anyone, by id or slug. */
export type PublicSignup = Signup & { status: 'published' | 'closed' };

export function isPublic(signup: Signup): signup is PublicSignup {
  return signup.status !== 'draft';
}

/** The tenant a caller acts for: one organization in one mode (sandbox or live). */
export interface Owner {
  organizationId: string;
  livemode: boolean;
}

export function ownerOf(principal: Principal): Owner {
  return { organizationId: principal.organizationId, livemode: principal.livemode };
}

/** The fields a PATCH may change; null clears a nullable one, undefined leaves it alone. */
export interface SignupChanges {
  title?: string;
  description?: string | null;
  eventDate?: Date;
  timeZone?: string;
  location?: string | null;
  maxParticipants?: number | null;
  requiresPhone?: boolean;
  signupCloseDate?: Date | null;
  reminderHoursBefore?: number;
  waitlist?: Partial<WaitlistSettings>;
}
