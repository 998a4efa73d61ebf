import type { JWK } from 'jose';
import type { Tier } from '#libs/config';
import type { Principal } from './principal.js';
import type { MemberRole, MeView, OrganizationView } from './auth.js';
import type { CreateSignupInput, ListSignupsInput, SignupView, UpdateSignupInput } from './signups.js';
import type { Page } from './pagination.js';
import type { CreateItemInput, CreateSlotInput, ItemView, SlotView, UpdateItemInput, UpdateSlotInput } from './slots-items.js';
import type {
  ParticipantView, PublicSignupView, RegistrationInput, RegistrationResultView, RegistrationView, UpdateParticipantInput, UpdateRegistrationInput,
} from './participants.js';
import type { AnalyticsView } from './analytics.js';
import type { SignupDraft } from './drafts.js';
import type { InboundSms, OutboxMessageView, ReminderPassView } from './reminders.js';
import type { CreateWebhookInput, DeliveryView, UpdateWebhookInput, WebhookEndpointView, WebhookTestView, WebhookWithSecretView } from './webhooks.js';

interface ById {
  principal: Principal;
  id: string;
}

/** A slot, item or participant of a signup. */
interface ChildById extends ById {
  signupId: string;
}

interface OfSignup {
  principal: Principal;
  signupId: string;
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
  /** What a resource server needs beside a verified token: the organization's tier (cached at the edge). */
  'auth.orgs.tier': { req: { organizationId: string }; res: { tier: Tier } };
  /** The user's role in the organization, which bounds an access token's scopes (cached briefly at the edge); invalid_credentials when not a member. */
  'auth.members.role': { req: { organizationId: string; userId: string }; res: { role: MemberRole } };
  /** The public keys that sign access tokens (a JWK Set), for local verification at the edges. */
  'auth.oauth.jwks': { req: Record<string, never>; res: { keys: JWK[] } };
  /** Grants revoked within an access token's lifetime: an edge loads them once, then follows auth.oauth.grant_revoked. */
  'auth.oauth.revocations': { req: Record<string, never>; res: { grantIds: string[] } };

  'signups.list': { req: { principal: Principal; query: ListSignupsInput }; res: Page<SignupView> };
  'signups.create': { req: { principal: Principal; input: CreateSignupInput }; res: SignupView };
  'signups.get': { req: ById; res: SignupView };
  'signups.update': { req: ById & { input: UpdateSignupInput }; res: SignupView };
  'signups.delete': { req: ById; res: SignupView };
  'signups.publish': { req: ById; res: SignupView };
  'signups.close': { req: ById; res: SignupView };
  'signups.analytics': { req: OfSignup; res: AnalyticsView };

  'signups.slots.create': { req: OfSignup & { input: CreateSlotInput[] }; res: { data: SlotView[] } };
  'signups.slots.list': { req: OfSignup; res: { data: SlotView[] } };
  'signups.slots.update': { req: ChildById & { input: UpdateSlotInput }; res: SlotView };
  'signups.slots.delete': { req: ChildById; res: SlotView };
  'signups.items.create': { req: OfSignup & { input: CreateItemInput[] }; res: { data: ItemView[] } };
  'signups.items.list': { req: OfSignup; res: { data: ItemView[] } };
  'signups.items.update': { req: ChildById & { input: UpdateItemInput }; res: ItemView };
  'signups.items.delete': { req: ChildById; res: ItemView };

  /** No credential needed: principal is absent for anonymous callers. */
  'signups.participants.register': { req: { principal?: Principal; signupId: string; input: RegistrationInput }; res: RegistrationResultView };
  'signups.participants.list': { req: OfSignup & { query: { limit?: number; cursor?: string } }; res: Page<ParticipantView> };
  'signups.participants.update': { req: ChildById & { input: UpdateParticipantInput }; res: ParticipantView };
  'signups.participants.delete': { req: ChildById; res: ParticipantView };

  /** By confirmation token, no credential. */
  'signups.registrations.get': { req: { token: string }; res: RegistrationView };
  'signups.registrations.update': { req: { token: string; input: UpdateRegistrationInput }; res: RegistrationView };
  'signups.registrations.cancel': { req: { token: string }; res: RegistrationView };

  /** A published or closed signup by slug or id, no credential. */
  'signups.public.get': { req: { slugOrId: string }; res: PublicSignupView };

  /** A draft from a free-text description (creates nothing); uses one of the month's AI drafts on success. */
  'signups.drafts.create': { req: { principal: Principal; input: { description: string } }; res: { draft: SignupDraft } };
  /** The signup a reminders act (send, outbox) is about, when the principal owns it: as signups.get, checking reminders:send. */
  'signups.reminders.target': { req: OfSignup; res: SignupView };

  /** A reminder pass over a published signup of the principal's organization. */
  'reminders.passes.run': { req: OfSignup; res: ReminderPassView };
  /** The texts sandbox passes stored for a signup, oldest first. */
  'reminders.outbox.list': { req: OfSignup; res: { data: OutboxMessageView[] } };
  /** A verified inbound SMS (STOP, START, HELP): the reply to text back, if any. */
  'reminders.inbound': { req: InboundSms; res: { reply: string | null } };

  /** Webhook endpoints of the principal's organization and mode (API keys only, checked at the edge). */
  'webhooks.create': { req: { principal: Principal; input: CreateWebhookInput }; res: WebhookWithSecretView };
  'webhooks.list': { req: { principal: Principal; query: { limit?: number; cursor?: string } }; res: Page<WebhookEndpointView> };
  'webhooks.get': { req: ById; res: WebhookEndpointView };
  'webhooks.update': { req: ById & { input: UpdateWebhookInput }; res: WebhookEndpointView };
  'webhooks.delete': { req: ById; res: WebhookEndpointView };
  'webhooks.pause': { req: ById; res: WebhookEndpointView };
  'webhooks.resume': { req: ById; res: WebhookEndpointView };
  'webhooks.rotate': { req: ById; res: WebhookWithSecretView };
  'webhooks.test': { req: ById; res: WebhookTestView };
  /** id: the endpoint's. */
  'webhooks.deliveries.list': { req: ById & { query: { limit?: number; cursor?: string } }; res: Page<DeliveryView> };
  /** id: the delivery's. */
  'webhooks.deliveries.replay': { req: ById; res: DeliveryView };
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
  'auth.orgs.tier': true,
  'auth.members.role': true,
  'auth.oauth.jwks': true,
  'auth.oauth.revocations': true,
  'signups.list': true,
  'signups.create': true,
  'signups.get': true,
  'signups.update': true,
  'signups.delete': true,
  'signups.publish': true,
  'signups.close': true,
  'signups.analytics': true,
  'signups.slots.create': true,
  'signups.slots.list': true,
  'signups.slots.update': true,
  'signups.slots.delete': true,
  'signups.items.create': true,
  'signups.items.list': true,
  'signups.items.update': true,
  'signups.items.delete': true,
  'signups.participants.register': true,
  'signups.participants.list': true,
  'signups.participants.update': true,
  'signups.participants.delete': true,
  'signups.registrations.get': true,
  'signups.registrations.update': true,
  'signups.registrations.cancel': true,
  'signups.public.get': true,
  'signups.drafts.create': true,
  'signups.reminders.target': true,
  'reminders.passes.run': true,
  'reminders.outbox.list': true,
  'reminders.inbound': true,
  'webhooks.create': true,
  'webhooks.list': true,
  'webhooks.get': true,
  'webhooks.update': true,
  'webhooks.delete': true,
  'webhooks.pause': true,
  'webhooks.resume': true,
  'webhooks.rotate': true,
  'webhooks.test': true,
  'webhooks.deliveries.list': true,
  'webhooks.deliveries.replay': true,
} as const satisfies Record<Subject, true>;

export const SUBJECTS = Object.keys(SUBJECT_LIST) as Subject[];

/**
 * How long an edge waits for the subjects whose work outlasts the bus's default timeout: an AI
 * provider may take AI_TIMEOUT_MS (up to 120 s) to draft; a reminder pass texts a few at a time,
 * each text within SMS_TIMEOUT_MS (up to 60 s), and an organization's largest pass is its daily ceiling.
 */
export const SLOW_SUBJECT_TIMEOUT_MS = {
  'signups.drafts.create': 125_000,
  'reminders.passes.run': 300_000,
} as const satisfies Partial<Record<Subject, number>>;

export function subjectsOf<O extends ServiceName>(owner: O): SubjectsOf<O>[] {
  return SUBJECTS.filter((s): s is SubjectsOf<O> => s.startsWith(`${owner}.`));
}

/** The handlers a service must provide: exactly one per subject it owns (checked by the compiler and at boot). */
export type HandlersOf<O extends ServiceName> = {
  [S in SubjectsOf<O>]: (req: RequestOf<S>) => Promise<ResponseOf<S>>;
};
