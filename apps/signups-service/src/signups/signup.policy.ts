import { ProblemError } from '#libs/problem';
import type { Owner, Signup } from './signup.js';
import { conflictDetail, outcomeOf, type SignupAction } from './signup-state.js';

/**
 * What a caller may do with a signup: everything when it owns it (same organization and mode),
 * read it when another organization's signup of the same mode is published or closed, nothing
 * otherwise: a credential never sees records of the other mode.
 */
export type Access = 'owner' | 'public' | 'none';

/** What access depends on. */
export type Readable = Pick<Signup, 'livemode' | 'organizationId' | 'status'>;

export function accessOf(signup: Readable, owner: Owner): Access {
  if (signup.livemode !== owner.livemode) return 'none';
  if (signup.organizationId === owner.organizationId) return 'owner';
  return signup.status === 'draft' ? 'none' : 'public';
}

/** Absent and invisible answer alike, so nothing leaks about other organizations' drafts. */
function notFound(): ProblemError {
  return new ProblemError('not_found', 'No signup with this id.');
}

/** The signup when the caller may read it. */
export function requireVisible<T extends Readable>(signup: T | undefined, owner: Owner): T {
  if (!signup || accessOf(signup, owner) === 'none') throw notFound();
  return signup;
}

/** The signup when the caller may take the action on it in its current status. */
export function requireActionable(signup: Signup | undefined, owner: Owner, action: SignupAction): Signup {
  const visible = requireVisible(signup, owner);
  if (accessOf(visible, owner) === 'public') {
    throw new ProblemError('forbidden', 'This signup belongs to another organization; only its organizer can change it.');
  }
  if (outcomeOf(action, visible.status) === 'conflict') throw new ProblemError('conflict', conflictDetail(action, visible.status));
  return visible;
}

/**
 * The signup when the caller owns it, for organizer-only acts that any status allows (reading
 * participants, analytics): another organization's public signup is forbidden, anything else
 * the caller cannot see is not found.
 */
export function requireOwned(signup: Signup | undefined, owner: Owner): Signup {
  const visible = requireVisible(signup, owner);
  if (accessOf(visible, owner) === 'public') {
    throw new ProblemError('forbidden', 'This signup belongs to another organization; only its organizer can do this.');
  }
  return visible;
}
