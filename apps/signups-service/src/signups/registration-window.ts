import type { EntityManager } from 'typeorm';
import { ProblemError } from '#libs/problem';
import type { Signup } from './signup.js';

/**
 * Why a signup takes no registration now: what a registration decides on the signup row it
 * locked (registrationRefusal), and what acceptingRegistrations shows.
 */
export type Closure = 'draft' | 'closed' | 'event_passed' | 'registration_closed' | 'full';

export function closureOf(signup: Signup, now: Date): Closure | undefined {
  if (signup.status === 'draft') return 'draft';
  if (signup.status === 'closed') return 'closed';
  if (signup.eventDate.getTime() <= now.getTime()) return 'event_passed';
  if (signup.signupCloseDate && signup.signupCloseDate.getTime() <= now.getTime()) return 'registration_closed';
  if (isSignupFull(signup) && !signup.waitlist.enabled) return 'full';
  return undefined;
}

/** Every place under maxParticipants is taken (or held by an offer): a registration joins the signup's own line, or is refused. */
export function isSignupFull(signup: Signup): boolean {
  return signup.maxParticipants !== null && signup.participantCount >= signup.maxParticipants;
}

export function acceptsRegistrations(signup: Signup, now: Date): boolean {
  return closureOf(signup, now) === undefined;
}

/** Places left under maxParticipants, or null without a limit. */
export function spotsRemaining(signup: Signup): number | null {
  return signup.maxParticipants === null ? null : Math.max(0, signup.maxParticipants - signup.participantCount);
}

export function closureDetail(closure: Closure, signup: Signup): string {
  switch (closure) {
    case 'draft':
      return 'This signup is a draft: publish it before registering participants.';
    case 'closed':
      return 'This signup is closed and accepts no more registrations.';
    case 'event_passed':
      return 'The event of this signup has already taken place; it accepts no more registrations.';
    case 'registration_closed':
      return `Registrations for this signup closed at ${signup.signupCloseDate!.toISOString()}.`;
    case 'full':
      return `This signup is full: all ${signup.maxParticipants} places are taken.`;
  }
}

/**
 * Why a participant can no longer change or cancel their registration by its confirmation
 * token: only while the signup is published and its event has not started. (The organizer's
 * own edits have no such limit.)
 */
export function changeClosureOf(signup: Signup, now: Date): 'closed' | 'event_passed' | undefined {
  if (signup.status !== 'published') return 'closed';
  if (signup.eventDate.getTime() <= now.getTime()) return 'event_passed';
  return undefined;
}

function changeClosureDetail(closure: 'closed' | 'event_passed'): string {
  return closure === 'closed'
    ? 'This signup is closed: its registrations can no longer be changed or canceled by their confirmation link. Contact the organizer.'
    : 'The event has already taken place: its registrations can no longer be changed or canceled.';
}

/**
 * What a participant may still do by confirmation token: `change` (edit, cancel) while the signup
 * is published and its event has not started; `line` (accept an offer, leave a line) until the
 * event starts, also once the signup is closed: an offer made before a close can still be taken.
 */
export type TokenWindow = 'change' | 'line';

/**
 * For a change by confirmation token: the signup, locked in the caller's transaction, when it
 * still takes such changes (TokenWindow); not_found when it is gone, bad_request otherwise.
 * Checked on the locked row, so a change cannot commit after a close.
 */
export async function lockForTokenChange(
  signups: { lock(db: EntityManager, id: string, mode: 'share' | 'update'): Promise<Signup | undefined> },
  db: EntityManager,
  signupId: string,
  window: TokenWindow,
  notFound: () => ProblemError,
): Promise<Signup> {
  const signup = await signups.lock(db, signupId, 'update');
  if (!signup) throw notFound();
  const closure = changeClosureOf(signup, new Date());
  if (closure && (window === 'change' || closure === 'event_passed')) throw new ProblemError('bad_request', changeClosureDetail(closure));
  return signup;
}

/** Whether the signup's event has started: its lines stand still from then on (Waitlists.fill). */
export function eventStarted(signup: Signup, now: Date): boolean {
  return signup.eventDate.getTime() <= now.getTime();
}
