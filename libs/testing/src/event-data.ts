import { randomUUID } from 'node:crypto';
import type { ParticipantEventData } from '#libs/contracts';

/**
 * What a participant.* event carries, for the specs of its consumers: a confirmed participant of
 * the signup with every field set, and the overrides.
 */
export function participantEventData(
  signupId: string,
  organizationId: string,
  overrides: Partial<ParticipantEventData> = {},
): ParticipantEventData {
  const at = '2026-11-22T10:00:00.000Z';
  return {
    id: randomUUID(),
    signupId,
    name: 'Ana',
    email: 'ana@example.com',
    phone: '+14155550123',
    selections: [],
    answers: {},
    createdAt: at,
    updatedAt: at,
    remindedAt: null,
    status: 'confirmed',
    statusChangedAt: at,
    cancelledAt: null,
    checkedInAt: null,
    noShowAt: null,
    hoursServed: null,
    waitlist: [],
    livemode: true,
    organizationId,
    ...overrides,
  };
}
