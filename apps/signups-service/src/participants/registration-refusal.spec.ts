import type { Signup } from '../signups/signup.js';
import { registrationRefusal } from './registration-refusal.js';

const now = new Date('2026-06-01T12:00:00Z');
const owner = { organizationId: 'org_a', livemode: false };

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

function codeOf(...args: Parameters<typeof registrationRefusal>): string | undefined {
  return registrationRefusal(...args)?.code;
}

describe('registrationRefusal', () => {
  it('is not_found for an absent signup and for a credential of the other mode', () => {
    expect(codeOf(undefined, undefined, true, now)).toBe('not_found');
    expect(codeOf(signup(), { ...owner, livemode: true }, true, now)).toBe('not_found');
  });

  it('is not_found for a draft except to its own organization, which hears bad_request', () => {
    const draft = signup({ status: 'draft', publishedAt: null });
    expect(codeOf(draft, undefined, true, now)).toBe('not_found');
    expect(codeOf(draft, { organizationId: 'org_b', livemode: false }, true, now)).toBe('not_found');
    expect(codeOf(draft, owner, true, now)).toBe('bad_request');
  });

  it('is bad_request for closed, past, cut-off and full signups', () => {
    expect(codeOf(signup({ status: 'closed', closedAt: now }), undefined, true, now)).toBe('bad_request');
    expect(codeOf(signup({ eventDate: now }), undefined, true, now)).toBe('bad_request');
    expect(codeOf(signup({ signupCloseDate: new Date('2026-06-01T11:59:59Z') }), undefined, true, now)).toBe('bad_request');
    expect(codeOf(signup({ maxParticipants: 3, participantCount: 3 }), undefined, true, now)).toBe('bad_request');
  });

  it('asks for the phone only of a signup that would accept the registration', () => {
    expect(registrationRefusal(signup({ requiresPhone: true }), undefined, false, now)).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'phone', message: 'Required' }],
    });
    expect(codeOf(signup({ requiresPhone: true, status: 'closed', closedAt: now }), undefined, false, now)).toBe('bad_request');
  });

  it('finds nothing in the way of a signup that accepts registrations', () => {
    expect(
      registrationRefusal(
        signup({ maxParticipants: 3, participantCount: 2, signupCloseDate: new Date('2026-06-02T00:00:00Z') }),
        owner,
        false,
        now,
      ),
    ).toBeUndefined();
  });
});
