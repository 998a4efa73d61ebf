import { randomUUID } from 'node:crypto';
import type { ParticipantEventData, SignupView } from '#libs/contracts';

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

/**
 * A signup as the API and the signup.* events show it, for the specs of its readers: a published
 * signup of the organization with no limits, waitlist or questions, and the overrides.
 */
export function signupViewData(organizationId: string, overrides: Partial<SignupView> = {}): SignupView {
  const at = '2026-11-22T10:00:00.000Z';
  const id = overrides.id ?? randomUUID();
  const slug = overrides.slug ?? `potluck-${id.slice(0, 6)}`;
  return {
    id,
    slug,
    title: 'Winter potluck',
    description: null,
    status: 'published',
    eventDate: '2026-12-24T18:00:00.000Z',
    timeZone: 'UTC',
    location: null,
    maxParticipants: null,
    requiresPhone: false,
    signupCloseDate: null,
    reminderHoursBefore: 24,
    waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
    seriesId: null,
    organizationId,
    participantCount: 0,
    publicUrl: `https://signups.example.test/s/${slug}`,
    livemode: true,
    createdAt: at,
    updatedAt: at,
    publishedAt: at,
    closedAt: null,
    questions: [],
    ...overrides,
  };
}
