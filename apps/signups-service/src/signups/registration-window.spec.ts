import { acceptsRegistrations, changeClosureOf, closureOf, spotsRemaining } from './registration-window.js';
import type { Signup } from './signup.js';

const now = new Date('2026-06-01T12:00:00Z');

function signup(overrides: Partial<Signup> = {}): Signup {
  return {
    id: '0190a0b2-7a3c-7def-8a12-1234567890ab',
    organizationId: 'org_a',
    livemode: false,
    slug: 'x-abc123',
    title: 'x',
    description: null,
    status: 'published',
    eventDate: new Date('2026-07-01T00:00:00Z'),
    location: null,
    maxParticipants: null,
    requiresPhone: false,
    signupCloseDate: null,
    participantCount: 0,
    createdAt: now,
    updatedAt: now,
    publishedAt: now,
    closedAt: null,
    ...overrides,
  };
}

describe('closureOf', () => {
  it('accepts a published signup before its event, its cut-off and its limit', () => {
    expect(
      closureOf(signup({ maxParticipants: 2, participantCount: 1, signupCloseDate: new Date('2026-06-01T12:00:01Z') }), now),
    ).toBeUndefined();
    expect(acceptsRegistrations(signup(), now)).toBe(true);
  });

  it('names the first reason a signup takes no registration', () => {
    expect(closureOf(signup({ status: 'draft' }), now)).toBe('draft');
    expect(closureOf(signup({ status: 'closed' }), now)).toBe('closed');
    expect(closureOf(signup({ eventDate: now }), now)).toBe('event_passed');
    expect(closureOf(signup({ signupCloseDate: now }), now)).toBe('registration_closed');
    expect(closureOf(signup({ maxParticipants: 2, participantCount: 2 }), now)).toBe('full');
  });
});

describe('spotsRemaining', () => {
  it('is null without a limit and never negative', () => {
    expect(spotsRemaining(signup())).toBeNull();
    expect(spotsRemaining(signup({ maxParticipants: 5, participantCount: 2 }))).toBe(3);
    expect(spotsRemaining(signup({ maxParticipants: 2, participantCount: 3 }))).toBe(0);
  });
});

describe('changeClosureOf', () => {
  it('lets participants change their registration while published and before the event, whatever the cut-off', () => {
    expect(
      changeClosureOf(signup({ signupCloseDate: new Date('2026-05-01T00:00:00Z'), maxParticipants: 1, participantCount: 1 }), now),
    ).toBeUndefined();
    expect(changeClosureOf(signup({ status: 'closed' }), now)).toBe('closed');
    expect(changeClosureOf(signup({ eventDate: now }), now)).toBe('event_passed');
  });
});
