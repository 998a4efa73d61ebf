import { aSignup } from '../testing/signup.js';
import { registrationRefusal } from './registration-refusal.js';

const now = new Date('2026-06-01T12:00:00Z');
const owner = { organizationId: 'org_a', livemode: false };

function codeOf(...args: Parameters<typeof registrationRefusal>): string | undefined {
  return registrationRefusal(...args)?.code;
}

describe('registrationRefusal', () => {
  it('is not_found for an absent signup and for a credential of the other mode', () => {
    expect(codeOf(undefined, undefined, true, now)).toBe('not_found');
    expect(codeOf(aSignup(), { ...owner, livemode: true }, true, now)).toBe('not_found');
  });

  it('is not_found for a draft except to its own organization, which hears bad_request', () => {
    const draft = aSignup({ status: 'draft', publishedAt: null });
    expect(codeOf(draft, undefined, true, now)).toBe('not_found');
    expect(codeOf(draft, { organizationId: 'org_b', livemode: false }, true, now)).toBe('not_found');
    expect(codeOf(draft, owner, true, now)).toBe('bad_request');
  });

  it('is bad_request for closed, past, cut-off and full signups', () => {
    expect(codeOf(aSignup({ status: 'closed', closedAt: now }), undefined, true, now)).toBe('bad_request');
    expect(codeOf(aSignup({ eventDate: now }), undefined, true, now)).toBe('bad_request');
    expect(codeOf(aSignup({ signupCloseDate: new Date('2026-06-01T11:59:59Z') }), undefined, true, now)).toBe('bad_request');
    expect(codeOf(aSignup({ maxParticipants: 3, participantCount: 3 }), undefined, true, now)).toBe('bad_request');
  });

  it('asks for the phone only of a signup that would accept the registration', () => {
    expect(registrationRefusal(aSignup({ requiresPhone: true }), undefined, false, now)).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'phone', message: 'Required' }],
    });
    expect(codeOf(aSignup({ requiresPhone: true, status: 'closed', closedAt: now }), undefined, false, now)).toBe('bad_request');
  });

  it('finds nothing in the way of a signup that accepts registrations', () => {
    expect(
      registrationRefusal(
        aSignup({ maxParticipants: 3, participantCount: 2, signupCloseDate: new Date('2026-06-02T00:00:00Z') }),
        owner,
        false,
        now,
      ),
    ).toBeUndefined();
  });
});
