import type { JWK } from 'jose';
import type { Tier } from '#libs/config';
import type { Scope } from '#libs/scopes';
import type { AnalyticsView } from './analytics.js';
import type { AttendanceView, CheckInInput, HoursReportQuery, HoursReportView, UpdateAttendanceInput } from './attendance.js';
import type { MemberRole, MeView, OrganizationView } from './auth.js';
import type { CalendarFeedContents, CalendarFeedCreatedView, CalendarFeedView } from './calendars.js';
import type { ZonedSignupDraft } from './drafts.js';
import type { AccountEmailInput, EmailListView, EmailView } from './emails.js';
import type { EventLogEntryView, EventLogQuery } from './event-log.js';
import type { ExportPageQuery, ParticipantExportPage } from './exports.js';
import type { ParticipantMessageContext } from './messages.js';
import type { Page } from './pagination.js';
import type {
  ListParticipantsInput,
  ParticipantView,
  PublicSignupView,
  RegistrationInput,
  RegistrationResultView,
  RegistrationView,
  UpdateParticipantInput,
  UpdateRegistrationInput,
} from './participants.js';
import type { Principal } from './principal.js';
import type { InboundSms, OutboxMessageView, ReminderChannel, ReminderPassView, ReminderStatusView } from './reminders.js';
import type { DuplicateSignupInput } from './series.js';
import type { CreateSignupInput, ListSignupsInput, SignupView, UpdateSignupInput } from './signups.js';
import type { CreateItemInput, CreateSlotInput, ItemView, SlotView, UpdateItemInput, UpdateSlotInput } from './slots-items.js';
import type { WaitlistedParticipantView, WaitlistQuery } from './waitlist.js';
import type {
  CreateWebhookInput,
  DeliveryView,
  UpdateWebhookInput,
  WebhookEndpointView,
  WebhookTestView,
  WebhookWithSecretView,
} from './webhooks.js';

interface ById {
  principal: Principal;
  id: string;
}

/** A write conditional on the request's If-Match (the header as sent), checked by the owning service in the write's transaction (requireIfMatch). */
interface Conditional {
  ifMatch?: string;
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
  /** An organization's name and tier: the sender name of its emails, and their daily ceiling. */
  'auth.orgs.profile': { req: { organizationId: string }; res: { name: string; tier: Tier } };
  /** The user's role in the organization, which bounds an access token's scopes (cached briefly at the edge); invalid_credentials when not a member. */
  'auth.members.role': { req: { organizationId: string; userId: string }; res: { role: MemberRole } };
  /** The public keys that sign access tokens (a JWK Set), for local verification at the edges. */
  'auth.oauth.jwks': { req: Record<string, never>; res: { keys: JWK[] } };
  /** Grants revoked within an access token's lifetime: an edge loads them once, then follows auth.oauth.grant_revoked. */
  'auth.oauth.revocations': { req: Record<string, never>; res: { grantIds: string[] } };

  'signups.list': { req: { principal: Principal; query: ListSignupsInput }; res: Page<SignupView> };
  'signups.create': { req: { principal: Principal; input: CreateSignupInput }; res: SignupView };
  'signups.get': { req: ById; res: SignupView };
  'signups.update': { req: ById & Conditional & { input: UpdateSignupInput }; res: SignupView };
  'signups.delete': { req: ById & Conditional; res: SignupView };
  'signups.publish': { req: ById; res: SignupView };
  'signups.close': { req: ById; res: SignupView };
  'signups.analytics': { req: OfSignup; res: AnalyticsView };
  /** Drafts copied from a signup at other dates, in one series with it; answers the copies by event date. */
  'signups.duplicate': { req: ById & { input: DuplicateSignupInput }; res: { data: SignupView[] } };
  /** Publishes every draft of a series of the principal's organization; answers the signups it published. */
  'signups.series.publish': { req: { principal: Principal; seriesId: string }; res: { data: SignupView[] } };
  /** Closes every published signup of a series of the principal's organization; answers the signups it closed. */
  'signups.series.close': { req: { principal: Principal; seriesId: string }; res: { data: SignupView[] } };

  'signups.slots.create': { req: OfSignup & { input: CreateSlotInput[] }; res: { data: SlotView[] } };
  'signups.slots.list': { req: OfSignup; res: { data: SlotView[] } };
  'signups.slots.update': { req: ChildById & Conditional & { input: UpdateSlotInput }; res: SlotView };
  'signups.slots.delete': { req: ChildById & Conditional; res: SlotView };
  'signups.items.create': { req: OfSignup & { input: CreateItemInput[] }; res: { data: ItemView[] } };
  'signups.items.list': { req: OfSignup; res: { data: ItemView[] } };
  'signups.items.update': { req: ChildById & Conditional & { input: UpdateItemInput }; res: ItemView };
  'signups.items.delete': { req: ChildById & Conditional; res: ItemView };

  /** No credential needed: principal is absent for anonymous callers. */
  'signups.participants.register': {
    req: { principal?: Principal; signupId: string; input: RegistrationInput };
    res: RegistrationResultView;
  };
  'signups.participants.list': { req: OfSignup & { query: ListParticipantsInput }; res: Page<ParticipantView> };
  /** One participant of an owned signup, as the list shows it: the representation If-Match on its edit and cancellation is compared with. */
  'signups.participants.get': { req: ChildById; res: ParticipantView };
  'signups.participants.update': { req: ChildById & Conditional & { input: UpdateParticipantInput }; res: ParticipantView };
  'signups.participants.delete': { req: ChildById & Conditional; res: ParticipantView };
  /**
   * What the emails to these participants need, as they are now (at most MAX_MESSAGE_CONTEXTS ids):
   * one context per participant found; an unknown id is left out. Only the reminders-service asks.
   */
  'signups.participants.messages': { req: { participantIds: string[] }; res: { data: ParticipantMessageContext[] } };
  /** One page of a signup's participants export, every status, oldest registration first (keyset on created_at, id). */
  'signups.participants.export': { req: OfSignup & { query: ExportPageQuery }; res: ParticipantExportPage };

  /** A signup's lines in order, with positions. */
  'signups.waitlist.list': { req: OfSignup & { query: WaitlistQuery }; res: Page<WaitlistedParticipantView> };
  /** id: the entry's. Gives a waiting entry a free place, or accepts an offer for them; answers the participant. */
  'signups.waitlist.promote': { req: ChildById; res: ParticipantView };
  /** id: the entry's. Takes it out of its line (an offer's place passes on); answers the participant. */
  'signups.waitlist.remove': { req: ChildById & Conditional; res: ParticipantView };

  /** Checks a confirmed (or no-show) participant in: status attended, with its hours; answers the participant. */
  'signups.attendance.check_in': { req: ChildById & { input: CheckInInput }; res: ParticipantView };
  /** Back to confirmed: checkedInAt and hoursServed cleared. */
  'signups.attendance.undo_check_in': { req: ChildById & Conditional; res: ParticipantView };
  /** Marks a confirmed (or checked-in) participant a no-show. */
  'signups.attendance.no_show': { req: ChildById; res: ParticipantView };
  'signups.attendance.undo_no_show': { req: ChildById & Conditional; res: ParticipantView };
  /** The hours of a checked-in participant. */
  'signups.attendance.update': { req: ChildById & Conditional & { input: UpdateAttendanceInput }; res: ParticipantView };
  'signups.attendance.get': { req: OfSignup; res: AttendanceView };
  /** The hours served at the signups of the principal's organization and mode over a range of days. */
  'signups.reports.hours': { req: { principal: Principal; query: HoursReportQuery }; res: HoursReportView };

  /** By confirmation token, no credential. */
  'signups.registrations.get': { req: { token: string }; res: RegistrationView };
  /** The registration behind a read-only calendar token (pcal_…), for the participant's calendar file only. */
  'signups.registrations.calendar': { req: { token: string }; res: RegistrationView };
  'signups.registrations.update': { req: { token: string; input: UpdateRegistrationInput } & Conditional; res: RegistrationView };
  'signups.registrations.cancel': { req: { token: string } & Conditional; res: RegistrationView };
  /** entryId: an entry of this registration that holds an offer. */
  'signups.registrations.accept': { req: { token: string; entryId: string }; res: RegistrationView };
  /** entryId: an entry of this registration: leaves that line (declines its offer). */
  'signups.registrations.leave': { req: { token: string; entryId: string } & Conditional; res: RegistrationView };

  /** A published or closed signup by slug or id, no credential. */
  'signups.public.get': { req: { slugOrId: string }; res: PublicSignupView };

  /** Whether the organization has a calendar feed in the principal's mode; never its address. */
  'signups.calendar_feed.get': { req: { principal: Principal }; res: CalendarFeedView };
  /** A new secret address for the feed of the principal's organization and mode; the previous one stops working. */
  'signups.calendar_feed.create': { req: { principal: Principal }; res: CalendarFeedCreatedView };
  /** Revokes the feed's address (the feed is gone until a new one is made); answers that no feed exists. */
  'signups.calendar_feed.revoke': { req: { principal: Principal } & Conditional; res: CalendarFeedView };
  /** By the feed's token, no credential: the signups the feed shows. */
  'signups.calendar_feed.events': { req: { token: string }; res: CalendarFeedContents };

  /** A draft from a free-text description (creates nothing), its times read in the zone given or the organization's; uses one of the month's AI drafts on success. */
  'signups.drafts.create': {
    req: { principal: Principal; input: { description: string; timeZone?: string } };
    res: { draft: ZonedSignupDraft };
  };
  /** The signup a reminders act (send, status, outbox) is about, when the principal owns it: as signups.get, checking reminders:send. */
  'signups.reminders.target': { req: OfSignup; res: SignupView };

  /** A reminder pass over a published signup of the principal's organization. */
  'reminders.passes.run': { req: OfSignup & { channel?: ReminderChannel }; res: ReminderPassView };
  /** The texts sandbox passes stored for a signup, oldest first. */
  'reminders.outbox.list': { req: OfSignup; res: { data: OutboxMessageView[] } };
  /** What a pass may still send today by each channel, and the reminders of the signup so far. */
  'reminders.status.get': { req: OfSignup; res: ReminderStatusView };
  /** A verified inbound SMS (STOP, START, HELP): the reply to text back, if any. */
  'reminders.inbound': { req: InboundSms; res: { reply: string | null } };
  /** The emails of a sandbox signup, newest first (a live signup's are never listed). */
  'reminders.emails.list': { req: OfSignup; res: EmailListView };
  /** The all-in-one mailbox: the newest stored emails (never sent), newest first. */
  'reminders.mailbox.list': { req: { limit: number }; res: EmailListView };
  'reminders.mailbox.get': { req: { id: string }; res: EmailView };
  /** A one-click unsubscribe (RFC 8058) from an organization's reminders, by the token of its link. */
  'reminders.unsubscribe': { req: { token: string }; res: { unsubscribed: true } };
  /** An account message of the auth-server (a verification or password reset link), recorded once per requestId and kind: the email's id. */
  'reminders.emails.account': { req: AccountEmailInput; res: { id: string } };

  /** Webhook endpoints of the principal's organization and mode (API keys only, checked at the edge). */
  'webhooks.create': { req: { principal: Principal; input: CreateWebhookInput }; res: WebhookWithSecretView };
  'webhooks.list': { req: { principal: Principal; query: { limit?: number; cursor?: string } }; res: Page<WebhookEndpointView> };
  'webhooks.get': { req: ById; res: WebhookEndpointView };
  'webhooks.update': { req: ById & Conditional & { input: UpdateWebhookInput }; res: WebhookEndpointView };
  'webhooks.delete': { req: ById & Conditional; res: WebhookEndpointView };
  'webhooks.pause': { req: ById; res: WebhookEndpointView };
  'webhooks.resume': { req: ById; res: WebhookEndpointView };
  'webhooks.rotate': { req: ById; res: WebhookWithSecretView };
  'webhooks.test': { req: ById; res: WebhookTestView };
  /** id: the endpoint's. */
  'webhooks.deliveries.list': { req: ById & { query: { limit?: number; cursor?: string } }; res: Page<DeliveryView> };
  /** id: the delivery's. */
  'webhooks.deliveries.replay': { req: ById; res: DeliveryView };
  /** The organization's event log of the principal's mode (docs/decisions.md, "Event log and sync"). */
  'webhooks.events.list': { req: { principal: Principal; query: EventLogQuery }; res: Page<EventLogEntryView> };
}

export type Subject = keyof RequestMap;
export type RequestOf<S extends Subject> = RequestMap[S]['req'];
export type ResponseOf<S extends Subject> = RequestMap[S]['res'];

export type ServiceName = Subject extends `${infer Owner}.${string}` ? Owner : never;
export type SubjectsOf<O extends ServiceName> = Extract<Subject, `${O}.${string}`>;

/**
 * Which credentials may ask: any (an API key or an OAuth access token), an organization API key
 * only, or an API key and the dashboard's own tokens holding participants:write (owners and
 * admins: what webhooks send out carries participants' contact details).
 */
export type CredentialKinds = 'any' | 'api_key' | 'api_key_or_dashboard';

/** Who may ask a subject. */
export type SubjectAccess =
  /** The apps among themselves (credential checks, inbound SMS, message contexts): no route or tool offers it to a caller. */
  | { access: 'internal' }
  /** Anyone, without a credential. */
  | { access: 'public' }
  /** Anyone; a credential that is sent must be valid, and needs no scope. */
  | { access: 'optional' }
  /** A valid credential of these kinds holding the scope (null: no particular scope). */
  | { access: 'credential'; credentials: CredentialKinds; scope: Scope | null };

export type SubjectEntry = SubjectAccess & {
  /**
   * How long a caller waits for the reply, for the subjects whose work outlasts the bus's
   * default timeout: an AI provider may take AI_TIMEOUT_MS (up to 120 s) to draft; a reminder
   * pass texts a few at a time, each text within SMS_TIMEOUT_MS (up to 60 s), and an
   * organization's largest pass is its daily ceiling; a webhook test send waits for the
   * dispatcher's WEBHOOK_TIMEOUT_MS (up to 60 s).
   */
  deadlineMs?: number;
};

/**
 * Every subject once, with who may ask it and how long to wait: the one table the gateway's
 * routes (Operation in libs/edge), the MCP tools, the services' own check before each handler
 * (authorized) and the bus's deadlines all read.
 */
const CATALOG = {
  'auth.apikeys.verify': { access: 'internal' },
  'auth.me': { access: 'credential', credentials: 'any', scope: null },
  'auth.orgs.get': { access: 'credential', credentials: 'any', scope: null },
  'auth.orgs.tier': { access: 'internal' },
  'auth.orgs.profile': { access: 'internal' },
  'auth.members.role': { access: 'internal' },
  'auth.oauth.jwks': { access: 'internal' },
  'auth.oauth.revocations': { access: 'internal' },
  'signups.list': { access: 'credential', credentials: 'any', scope: 'signups:read' },
  'signups.create': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.get': { access: 'credential', credentials: 'any', scope: 'signups:read' },
  'signups.update': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.delete': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.publish': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.close': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.analytics': { access: 'credential', credentials: 'any', scope: 'analytics:read' },
  'signups.duplicate': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.series.publish': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.series.close': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.slots.create': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.slots.list': { access: 'credential', credentials: 'any', scope: 'signups:read' },
  'signups.slots.update': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.slots.delete': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.items.create': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.items.list': { access: 'credential', credentials: 'any', scope: 'signups:read' },
  'signups.items.update': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.items.delete': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.participants.register': { access: 'optional' },
  'signups.participants.list': { access: 'credential', credentials: 'any', scope: 'participants:read' },
  'signups.participants.get': { access: 'credential', credentials: 'any', scope: 'participants:read' },
  'signups.participants.update': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.participants.delete': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.participants.messages': { access: 'internal' },
  'signups.participants.export': { access: 'credential', credentials: 'any', scope: 'participants:read' },
  'signups.waitlist.list': { access: 'credential', credentials: 'any', scope: 'participants:read' },
  'signups.waitlist.promote': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.waitlist.remove': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.attendance.check_in': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.attendance.undo_check_in': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.attendance.no_show': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.attendance.undo_no_show': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.attendance.update': { access: 'credential', credentials: 'any', scope: 'participants:write' },
  'signups.attendance.get': { access: 'credential', credentials: 'any', scope: 'participants:read' },
  'signups.reports.hours': { access: 'credential', credentials: 'any', scope: 'participants:read' },
  'signups.registrations.get': { access: 'public' },
  'signups.registrations.calendar': { access: 'public' },
  'signups.registrations.update': { access: 'public' },
  'signups.registrations.cancel': { access: 'public' },
  'signups.registrations.accept': { access: 'public' },
  'signups.registrations.leave': { access: 'public' },
  'signups.public.get': { access: 'public' },
  'signups.calendar_feed.get': { access: 'credential', credentials: 'any', scope: 'signups:read' },
  'signups.calendar_feed.create': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.calendar_feed.revoke': { access: 'credential', credentials: 'any', scope: 'signups:write' },
  'signups.calendar_feed.events': { access: 'public' },
  'signups.drafts.create': { access: 'credential', credentials: 'any', scope: 'ai:draft', deadlineMs: 125_000 },
  'signups.reminders.target': { access: 'credential', credentials: 'any', scope: 'reminders:send' },
  'reminders.passes.run': { access: 'credential', credentials: 'any', scope: 'reminders:send', deadlineMs: 300_000 },
  'reminders.outbox.list': { access: 'credential', credentials: 'any', scope: 'reminders:send' },
  'reminders.status.get': { access: 'credential', credentials: 'any', scope: 'reminders:send' },
  'reminders.inbound': { access: 'internal' },
  'reminders.emails.list': { access: 'credential', credentials: 'any', scope: 'reminders:send' },
  'reminders.mailbox.list': { access: 'internal' },
  'reminders.mailbox.get': { access: 'internal' },
  'reminders.unsubscribe': { access: 'internal' },
  'reminders.emails.account': { access: 'internal' },
  'webhooks.create': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.list': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.get': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.update': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.delete': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.pause': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.resume': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.rotate': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.test': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null, deadlineMs: 65_000 },
  'webhooks.deliveries.list': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.deliveries.replay': { access: 'credential', credentials: 'api_key_or_dashboard', scope: null },
  'webhooks.events.list': { access: 'credential', credentials: 'api_key', scope: 'participants:read' },
} as const satisfies Record<Subject, SubjectEntry>;

export const SUBJECT_CATALOG: Readonly<Record<Subject, SubjectEntry>> = CATALOG;

export const SUBJECTS = Object.keys(CATALOG) as Subject[];

/** The subjects a caller may reach through an edge (a route or a tool): every one but the internal ones. */
export type EdgeSubject = { [S in Subject]: (typeof CATALOG)[S] extends { access: 'internal' } ? never : S }[Subject];

/** How long a request of this subject may take, when it may outlast the bus's default timeout. */
export function deadlineOf(subject: Subject): number | undefined {
  return SUBJECT_CATALOG[subject].deadlineMs;
}

export function subjectsOf<O extends ServiceName>(owner: O): SubjectsOf<O>[] {
  return SUBJECTS.filter((s): s is SubjectsOf<O> => s.startsWith(`${owner}.`));
}

/**
 * A handler's answer given as the JSON text of a T, already made (by Postgres, say): the bus
 * sends it as it is, and a caller that parses the reply gets the T. The text must be exactly
 * what JSON.stringify makes of that T, as an edge that passes it on hashes it for its ETag.
 */
export class JsonAnswer<T> {
  declare readonly answerOf?: T;

  constructor(readonly text: string) {}
}

/** The handlers a service must provide: exactly one per subject it owns (checked by the compiler and at boot). */
export type HandlersOf<O extends ServiceName> = {
  [S in SubjectsOf<O>]: (req: RequestOf<S>) => Promise<ResponseOf<S> | JsonAnswer<ResponseOf<S>>>;
};
