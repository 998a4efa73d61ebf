import type { Principal } from './principal.js';
import type { MeView, OrganizationView } from './auth.js';
import type { CreateSignupInput, ListSignupsInput, SignupView, UpdateSignupInput } from './signups.js';
import type { Page } from './pagination.js';

interface ById {
  principal: Principal;
  id: string;
}

/**
 * Every request/reply subject with its request and response payload. The owner (the part
 * before the first dot) is the app that serves it; edges call them through the bus.
 */
export interface RequestMap {
  /** By the SHA-256 (hex) of the key: the plain key never travels on the bus. */
  'auth.apikeys.verify': { req: { keyHash: string }; res: Principal };
  'auth.me': { req: { principal: Principal }; res: MeView };
  'auth.orgs.get': { req: ById; res: OrganizationView };

  'signups.list': { req: { principal: Principal; query: ListSignupsInput }; res: Page<SignupView> };
  'signups.create': { req: { principal: Principal; input: CreateSignupInput }; res: SignupView };
  'signups.get': { req: ById; res: SignupView };
  'signups.update': { req: ById & { input: UpdateSignupInput }; res: SignupView };
  'signups.delete': { req: ById; res: SignupView };
  'signups.publish': { req: ById; res: SignupView };
  'signups.close': { req: ById; res: SignupView };
}

export type Subject = keyof RequestMap;
export type RequestOf<S extends Subject> = RequestMap[S]['req'];
export type ResponseOf<S extends Subject> = RequestMap[S]['res'];

export type ServiceName = Subject extends `${infer Owner}.${string}` ? Owner : never;
export type SubjectsOf<O extends ServiceName> = Extract<Subject, `${O}.${string}`>;

/** The runtime list of subjects (kept equal to RequestMap's keys by the type below). */
const SUBJECT_LIST = {
  'auth.apikeys.verify': true,
  'auth.me': true,
  'auth.orgs.get': true,
  'signups.list': true,
  'signups.create': true,
  'signups.get': true,
  'signups.update': true,
  'signups.delete': true,
  'signups.publish': true,
  'signups.close': true,
} as const satisfies Record<Subject, true>;

export const SUBJECTS = Object.keys(SUBJECT_LIST) as Subject[];

export function subjectsOf<O extends ServiceName>(owner: O): SubjectsOf<O>[] {
  return SUBJECTS.filter((s): s is SubjectsOf<O> => s.startsWith(`${owner}.`));
}

/** The handlers a service must provide: exactly one per subject it owns (checked by the compiler and at boot). */
export type HandlersOf<O extends ServiceName> = {
  [S in SubjectsOf<O>]: (req: RequestOf<S>) => Promise<ResponseOf<S>>;
};
