import type {
  ParticipantEventData,
  ParticipantView,
  RegistrationResultView,
  WaitlistedParticipantView,
  WaitlistedSelectionView,
  WaitlistEntryView,
} from '#libs/contracts';
import type { EventType } from '#libs/contracts';
import type { PendingEvent } from '../common/pending-event.js';
import type { SignupRef } from '../signups/signup.js';
import { transitionEvent } from '../signups/slot-item.presenter.js';
import type { TargetTransition, WaitlistEntry } from '../waitlist/waitlist.js';
import type { WaitlistedEntry } from '../waitlist/waitlist.repository.js';
import type { Participant } from './participant.js';
import type { Allocation } from './selection-allocator.js';

export function waitlistEntryView(entry: WaitlistEntry): WaitlistEntryView {
  return {
    id: entry.id,
    type: entry.kind,
    targetId: entry.targetId,
    quantity: entry.quantity,
    state: entry.state,
    position: entry.position,
    joinedAt: entry.joinedAt.toISOString(),
    offeredAt: entry.offeredAt?.toISOString() ?? null,
    offerExpiresAt: entry.offerExpiresAt?.toISOString() ?? null,
  };
}

/** An entry of the organizer's waitlist. */
export function waitlistedParticipantView(entry: WaitlistedEntry): WaitlistedParticipantView {
  return { ...waitlistEntryView(entry), participantId: entry.participantId, name: entry.name, email: entry.email };
}

/** livemode is the participant's signup's. */
export function participantView(participant: Participant, livemode: boolean): ParticipantView {
  return {
    id: participant.id,
    signupId: participant.signupId,
    name: participant.name,
    email: participant.email,
    phone: participant.phone,
    selections: participant.selections.map((s) => ({ type: s.type, id: s.id, quantity: s.quantity })),
    answers: participant.answers,
    createdAt: participant.createdAt.toISOString(),
    updatedAt: participant.updatedAt.toISOString(),
    remindedAt: participant.remindedAt?.toISOString() ?? null,
    status: participant.status,
    statusChangedAt: participant.statusChangedAt.toISOString(),
    cancelledAt: participant.cancelledAt?.toISOString() ?? null,
    checkedInAt: participant.checkedInAt?.toISOString() ?? null,
    noShowAt: participant.noShowAt?.toISOString() ?? null,
    hoursServed: participant.hoursServed,
    waitlist: participant.waitlist.map(waitlistEntryView),
    livemode,
  };
}

export type ParticipantEventType = Extract<EventType, `participant.${string}`>;

/** A participant.* event (subject: the participant id), then the slot/item transitions it caused. */
export function participantEvents(
  type: ParticipantEventType,
  participant: Participant,
  signup: SignupRef,
  transitions: TargetTransition[],
): PendingEvent[] {
  const data: ParticipantEventData = { ...participantView(participant, signup.livemode), organizationId: signup.organizationId };
  return [
    { type, data, meta: { orgid: signup.organizationId, livemode: signup.livemode, subject: participant.id } },
    ...transitions.map(({ target, transition }) => transitionEvent(target, transition, signup)),
  ];
}

/** The answer to a registration, in the order of the selections asked for. */
export function registrationResult(
  allocations: Allocation[],
  stored?: { participant: Participant; token: string; waitlisted: WaitlistEntry[] },
): RegistrationResultView {
  const failed = allocations.flatMap((a) =>
    a.confirmed ? [] : [{ type: a.selection.type, id: a.selection.id, reason: a.reason, message: a.message }],
  );
  return {
    success: failed.length === 0,
    ...(stored && { confirmationToken: stored.token }),
    confirmed: stored
      ? allocations.flatMap((a) =>
          a.confirmed ? [{ type: a.selection.type, id: a.selection.id, participantId: stored.participant.id }] : [],
        )
      : [],
    failed,
    waitlisted: (stored?.waitlisted ?? []).map((entry): WaitlistedSelectionView => ({
      type: entry.kind,
      id: entry.targetId,
      participantId: entry.participantId,
      position: entry.position!,
    })),
  };
}
