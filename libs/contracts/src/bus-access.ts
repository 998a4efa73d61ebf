import type { AppName } from '#libs/config';
import { EVENT_TYPES, type EventType } from './events.js';
import { type ServiceName, type Subject, subjectsOf } from './subjects.js';
import { WEBHOOK_EVENT_TYPES } from './webhooks.js';

/** A durable JetStream consumer: its name and the event types it reads. */
export interface DurableAccess {
  durable: string;
  types: readonly EventType[];
}

/**
 * What one app does on the bus. The single source for each app's NATS permissions (see
 * natsPermissionsFor in libs/bus): a subject or event left out here is refused by the server.
 */
export interface BusAccess {
  /** The owner whose subjects the app answers (every subject of it). */
  serves?: ServiceName;
  /** Subjects of other owners it requests. */
  calls: readonly Subject[];
  /** Event types its outbox relay publishes to JetStream. */
  emits: readonly EventType[];
  /** Its durable consumers on the event stream. */
  consumes: readonly DurableAccess[];
  /** Event types it follows with a plain (non-durable) subscription on every replica. */
  follows: readonly EventType[];
}

const SIGNUP_EVENTS = [
  'signup.created',
  'signup.updated',
  'signup.published',
  'signup.closed',
  'signup.deleted',
] as const satisfies readonly EventType[];
const PARTICIPANT_EVENTS = [
  'participant.registered',
  'participant.updated',
  'participant.canceled',
  'participant.waitlisted',
  'participant.offered',
  'participant.promoted',
  'participant.offer_expired',
  'participant.checked_in',
  'participant.no_show',
] as const satisfies readonly EventType[];
const SLOT_ITEM_EVENTS = [
  'slot.updated',
  'slot.filled',
  'slot.opened',
  'item.filled',
  'item.opened',
] as const satisfies readonly EventType[];
const AUTH_EVENTS = [
  'auth.apikey.revoked',
  'auth.organization.tier_changed',
  'auth.oauth.grant_revoked',
] as const satisfies readonly EventType[];

/** What every edge (api-gateway, mcp-server) asks the auth-server to verify a credential (libs/edge). */
const CREDENTIAL_CALLS = [
  'auth.apikeys.verify',
  'auth.members.role',
  'auth.oauth.jwks',
  'auth.oauth.revocations',
  'auth.orgs.tier',
] as const satisfies readonly Subject[];

/** Every event a webhook endpoint may subscribe to that the platform emits (webhook.test is sent directly). */
const DELIVERABLE_EVENTS: readonly EventType[] = EVENT_TYPES.filter((type) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));

/** The durable consumers: the apps subscribe with these names and types. */
export const DURABLES = {
  'signups-reminded': { durable: 'signups-reminded', types: ['reminder.sent'] },
  'reminders-contacts': { durable: 'reminders-contacts', types: [...SIGNUP_EVENTS, ...PARTICIPANT_EVENTS] },
  /**
   * The events an email may answer: the participant events (check-ins and no-shows mail nobody),
   * and the edits of a signup or a slot that move what the participants were told.
   */
  'reminders-mail': {
    durable: 'reminders-mail',
    types: [
      ...PARTICIPANT_EVENTS.filter((type) => type !== 'participant.checked_in' && type !== 'participant.no_show'),
      'signup.updated',
      'slot.updated',
    ],
  },
  'webhooks-fan-out': { durable: 'webhooks-fan-out', types: DELIVERABLE_EVENTS },
} as const satisfies Record<string, DurableAccess>;

/** The event types a durable consumer reads (what its handler is handed). */
export type DurableEventType<D extends keyof typeof DURABLES> = (typeof DURABLES)[D]['types'][number];

export const BUS_ACCESS = {
  'api-gateway': {
    calls: [
      ...CREDENTIAL_CALLS,
      'auth.me',
      'auth.orgs.get',
      ...subjectsOf('signups').filter((s) => s !== 'signups.reminders.target' && s !== 'signups.participants.messages'),
      ...subjectsOf('reminders').filter((s) => s !== 'reminders.emails.account'),
      ...subjectsOf('webhooks'),
    ],
    emits: [],
    consumes: [],
    follows: AUTH_EVENTS,
  },
  'mcp-server': {
    calls: [
      ...CREDENTIAL_CALLS,
      'auth.me',
      'reminders.passes.run',
      'signups.list',
      'signups.create',
      'signups.get',
      'signups.update',
      'signups.publish',
      'signups.close',
      'signups.analytics',
      'signups.duplicate',
      'signups.series.publish',
      'signups.series.close',
      'signups.drafts.create',
      'signups.slots.create',
      'signups.slots.update',
      'signups.items.create',
      'signups.items.update',
      'signups.participants.register',
      'signups.participants.list',
      'signups.participants.delete',
      'signups.waitlist.list',
      'signups.waitlist.promote',
      'signups.waitlist.remove',
      'signups.attendance.check_in',
      'signups.attendance.no_show',
      'signups.attendance.get',
    ],
    emits: [],
    consumes: [],
    follows: AUTH_EVENTS,
  },
  'auth-server': { serves: 'auth', calls: ['reminders.emails.account'], emits: AUTH_EVENTS, consumes: [], follows: [] },
  'signups-service': {
    serves: 'signups',
    // The organization's time zone, for a signup or a draft given none.
    calls: ['auth.orgs.get'],
    emits: [...SIGNUP_EVENTS, ...PARTICIPANT_EVENTS, ...SLOT_ITEM_EVENTS],
    consumes: [DURABLES['signups-reminded']],
    follows: [],
  },
  'webhooks-dispatcher': { serves: 'webhooks', calls: [], emits: [], consumes: [DURABLES['webhooks-fan-out']], follows: [] },
  'reminders-service': {
    serves: 'reminders',
    calls: ['auth.orgs.tier', 'auth.orgs.profile', 'signups.reminders.target', 'signups.participants.messages'],
    emits: ['reminder.sent'],
    consumes: [DURABLES['reminders-contacts'], DURABLES['reminders-mail']],
    follows: [],
  },
} as const satisfies Record<AppName, BusAccess>;

/** The bus access of one app, widened to the interface. */
export function busAccessOf(app: AppName): BusAccess {
  return BUS_ACCESS[app];
}
