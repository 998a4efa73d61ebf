import type { SignupStatus } from '#libs/contracts';

/** Everything an organizer can do to an existing signup. */
export type SignupAction = 'update' | 'publish' | 'close' | 'delete';

/** apply: the action takes effect; noop: already done, answer with the signup as it is; conflict: 409. */
export type Outcome = 'apply' | 'noop' | 'conflict';

const TRANSITIONS: Readonly<Record<SignupAction, Readonly<Record<SignupStatus, Outcome>>>> = {
  update: { draft: 'apply', published: 'apply', closed: 'conflict' },
  publish: { draft: 'apply', published: 'noop', closed: 'conflict' },
  close: { draft: 'conflict', published: 'apply', closed: 'noop' },
  delete: { draft: 'apply', published: 'apply', closed: 'apply' },
};

export function outcomeOf(action: SignupAction, status: SignupStatus): Outcome {
  return TRANSITIONS[action][status];
}

/** The statuses from which the action applies: the guard of its conditional write. */
export function appliesFrom(action: SignupAction): SignupStatus[] {
  return (Object.keys(TRANSITIONS[action]) as SignupStatus[]).filter((status) => TRANSITIONS[action][status] === 'apply');
}

/** The status a status change moves to. */
export const TARGET_STATUS = { publish: 'published', close: 'closed' } as const satisfies Partial<Record<SignupAction, SignupStatus>>;

export type StatusChange = keyof typeof TARGET_STATUS;

const PAST: Readonly<Record<SignupAction, string>> = { update: 'edited', publish: 'published', close: 'closed', delete: 'deleted' };

export function conflictDetail(action: SignupAction, status: SignupStatus): string {
  return `A ${status} signup cannot be ${PAST[action]}.`;
}
