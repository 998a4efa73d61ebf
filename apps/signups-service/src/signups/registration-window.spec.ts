import { aSignup } from '../testing/signup.js';
import { acceptsRegistrations, changeClosureOf, closureOf, spotsRemaining } from './registration-window.js';

const now = new Date('2026-06-01T12:00:00Z');

describe('closureOf', () => {
  it('accepts a published signup before its event, its cut-off and its limit', () => {
    expect(
      closureOf(aSignup({ maxParticipants: 2, participantCount: 1, signupCloseDate: new Date('2026-06-01T12:00:01Z') }), now),
    ).toBeUndefined();
    expect(acceptsRegistrations(aSignup(), now)).toBe(true);
  });

  it('names the first reason a signup takes no registration', () => {
    expect(closureOf(aSignup({ status: 'draft' }), now)).toBe('draft');
    expect(closureOf(aSignup({ status: 'closed' }), now)).toBe('closed');
    expect(closureOf(aSignup({ eventDate: now }), now)).toBe('event_passed');
    expect(closureOf(aSignup({ signupCloseDate: now }), now)).toBe('registration_closed');
    expect(closureOf(aSignup({ maxParticipants: 2, participantCount: 2 }), now)).toBe('full');
  });
});

describe('spotsRemaining', () => {
  it('is null without a limit and never negative', () => {
    expect(spotsRemaining(aSignup())).toBeNull();
    expect(spotsRemaining(aSignup({ maxParticipants: 5, participantCount: 2 }))).toBe(3);
    expect(spotsRemaining(aSignup({ maxParticipants: 2, participantCount: 3 }))).toBe(0);
  });
});

describe('changeClosureOf', () => {
  it('lets participants change their registration while published and before the event, whatever the cut-off', () => {
    expect(
      changeClosureOf(aSignup({ signupCloseDate: new Date('2026-05-01T00:00:00Z'), maxParticipants: 1, participantCount: 1 }), now),
    ).toBeUndefined();
    expect(changeClosureOf(aSignup({ status: 'closed' }), now)).toBe('closed');
    expect(changeClosureOf(aSignup({ eventDate: now }), now)).toBe('event_passed');
  });
});
