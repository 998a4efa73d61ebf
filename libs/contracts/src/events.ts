import type { Tier } from '#libs/config';
import type { ParticipantView } from './participants.js';
import type { ReminderSentData } from './reminders.js';
import type { SignupView } from './signups.js';
import type { ItemView, SlotView } from './slots-items.js';

/** What participant.* events carry: the participant, whose organization and which mode. */
export type ParticipantEventData = ParticipantView & { organizationId: string; livemode: boolean };

/** What slot.* events carry. */
export type SlotEventData = SlotView & { signupId: string; organizationId: string; livemode: boolean };

/** What item.* events carry. */
export type ItemEventData = ItemView & { signupId: string; organizationId: string; livemode: boolean };

/** Domain events with their data. Subject on JetStream: events.<type>. */
export interface EventMap {
  'signup.created': SignupView;
  'signup.updated': SignupView;
  'signup.published': SignupView;
  'signup.closed': SignupView;
  'signup.deleted': SignupView;
  'participant.registered': ParticipantEventData;
  'participant.updated': ParticipantEventData;
  'participant.canceled': ParticipantEventData;
  /** It joined a line (its registration did not fit, and the signup's waitlist is on). */
  'participant.waitlisted': ParticipantEventData;
  /** A freed place is held for it until an entry's offerExpiresAt (offer mode). */
  'participant.offered': ParticipantEventData;
  /** It was moved into a place: at once (auto mode), by accepting an offer, or by the organizer. */
  'participant.promoted': ParticipantEventData;
  /** An offer ran out unanswered; the place passed to the next in line. */
  'participant.offer_expired': ParticipantEventData;
  /** The organizer checked it in (status attended), with its hoursServed. */
  'participant.checked_in': ParticipantEventData;
  /** The organizer marked it a no-show. */
  'participant.no_show': ParticipantEventData;
  /** The organizer edited it (its title, description, times or capacity): the slot as it is after the edit. */
  'slot.updated': SlotEventData;
  /** It became full (a registration took the last place, or its capacity was lowered to what is taken). */
  'slot.filled': SlotEventData;
  /** A full slot has a place again. */
  'slot.opened': SlotEventData;
  'item.filled': ItemEventData;
  'item.opened': ItemEventData;
  /** An SMS reminder went out to a participant (sandbox: it was stored in the outbox). */
  'reminder.sent': ReminderSentData;
  'auth.apikey.revoked': { apiKeyId: string; organizationId: string; livemode: boolean };
  /** Carries the organization's time zone too, as every event about an organization does. */
  'auth.organization.tier_changed': { organizationId: string; tier: Tier; previousTier: Tier; timeZone: string; livemode: boolean };
  /** Every token of the grant is void from now on (refresh token reuse, RFC 7009 revocation, or the user disconnected the app). */
  'auth.oauth.grant_revoked': { grantId: string; organizationId: string; livemode: boolean };
}

export type EventType = keyof EventMap;

const EVENT_TYPE_LIST = {
  'signup.created': true,
  'signup.updated': true,
  'signup.published': true,
  'signup.closed': true,
  'signup.deleted': true,
  'participant.registered': true,
  'participant.updated': true,
  'participant.canceled': true,
  'participant.waitlisted': true,
  'participant.offered': true,
  'participant.promoted': true,
  'participant.offer_expired': true,
  'participant.checked_in': true,
  'participant.no_show': true,
  'slot.updated': true,
  'slot.filled': true,
  'slot.opened': true,
  'item.filled': true,
  'item.opened': true,
  'reminder.sent': true,
  'auth.apikey.revoked': true,
  'auth.organization.tier_changed': true,
  'auth.oauth.grant_revoked': true,
} as const satisfies Record<EventType, true>;

export const EVENT_TYPES = Object.keys(EVENT_TYPE_LIST) as EventType[];

/** CloudEvents 1.0, structured mode, with the orgid and livemode extension attributes: one event of type T. */
interface CloudEventOf<T extends EventType> {
  specversion: '1.0';
  id: string;
  source: string;
  type: T;
  time: string;
  datacontenttype: 'application/json';
  subject?: string;
  orgid: string;
  livemode: boolean;
  data: EventMap[T];
}

/**
 * A CloudEvent of one of the types T (by default, of any type): a union discriminated by `type`,
 * so checking an event's type narrows its data to that type's payload.
 */
export type CloudEvent<T extends EventType = EventType> = { [K in T]: CloudEventOf<K> }[T];

export function eventSubject(type: EventType): string {
  return `events.${type}`;
}
