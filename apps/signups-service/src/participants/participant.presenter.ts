import type { ParticipantEventData, ParticipantView, RegistrationResultView } from '#libs/contracts';
import type { PendingEvent } from '../common/pending-event.js';
import type { SignupRef } from '../signups/signup.js';
import { transitionEvent } from '../signups/slot-item.presenter.js';
import type { Participant } from './participant.js';
import type { Allocation, TargetTransition } from './selection-allocator.js';

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
    livemode,
  };
}

export type ParticipantEventType = 'participant.registered' | 'participant.updated' | 'participant.canceled';

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
  stored?: { participant: Participant; token: string },
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
  };
}
