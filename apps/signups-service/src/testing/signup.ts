import type { Signup } from '../signups/signup.js';

/** A published signup of org_a in sandbox mode, for the unit tests of the rules that read one. */
export function aSignup(overrides: Partial<Signup> = {}): Signup {
  const now = new Date('2026-06-01T12:00:00Z');
  return {
    id: '0190a0b2-7a3c-7def-8a12-1234567890ab',
    organizationId: 'org_a',
    livemode: false,
    slug: 'x-abc123',
    title: 'x',
    description: null,
    status: 'published',
    eventDate: new Date('2026-07-01T00:00:00Z'),
    timeZone: 'UTC',
    location: null,
    maxParticipants: null,
    requiresPhone: false,
    signupCloseDate: null,
    reminderHoursBefore: 24,
    waitlist: { enabled: false, mode: 'auto', offerMinutes: 1440 },
    seriesId: null,
    participantCount: 0,
    createdAt: now,
    updatedAt: now,
    publishedAt: now,
    closedAt: null,
    questions: [],
    ...overrides,
  };
}
