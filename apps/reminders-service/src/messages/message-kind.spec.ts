import type { ParticipantStatus, WaitlistEntryView } from '#libs/contracts';
import { entry } from '../testing/message-context.js';
import { type MailEventType, MESSAGE_KINDS, type MessageKind, messageKindFor, type ParticipantState } from './message-kind.js';

const state = (status: ParticipantStatus, waitlist: WaitlistEntryView[] = []): ParticipantState => ({ status, waitlist });
const waiting = entry();
const offered = entry({
  state: 'offered',
  position: null,
  offeredAt: '2026-11-30T10:00:00.000Z',
  offerExpiresAt: '2026-12-01T10:00:00.000Z',
});

describe('the message each event calls for', () => {
  it.each<[MailEventType, ParticipantState, MessageKind | null, string]>([
    ['participant.registered', state('confirmed'), 'confirmation', 'a registration that got what it asked'],
    ['participant.registered', state('confirmed', [waiting]), 'confirmation', 'some selections taken, others in line: one message'],
    [
      'participant.registered',
      state('waitlisted', [waiting]),
      'waitlisted',
      'every selection in line: waitlisted, not confirmation and waitlisted',
    ],
    ['participant.registered', state('waitlisted', [entry({ type: 'signup' })]), 'waitlisted', 'a full signup'],
    ['participant.registered', state('offered', [offered]), 'offer', 'offered a place before its first email went out'],
    ['participant.registered', state('cancelled'), 'cancellation', 'cancelled before its first email went out'],
    ['participant.waitlisted', state('waitlisted', [waiting]), null, 'always emitted with participant.registered, which tells it'],
    ['participant.updated', state('confirmed'), 'change', 'an edit'],
    ['participant.updated', state('waitlisted', [waiting]), 'change', 'an edit while in line'],
    ['participant.updated', state('offered', [offered]), 'change', 'an edit while offered'],
    ['participant.updated', state('attended'), null, "the organizer's hours, or a change after the check-in"],
    ['participant.updated', state('no_show'), null, 'a change after the no-show'],
    ['participant.updated', state('cancelled'), null, 'cancelled since: participant.canceled tells it'],
    ['participant.canceled', state('cancelled'), 'cancellation', 'a cancellation'],
    ['participant.offered', state('offered', [offered]), 'offer', 'an offer'],
    ['participant.offered', state('confirmed', [offered]), 'offer', 'an offer to someone who holds other places'],
    ['participant.offered', state('confirmed'), null, 'an offer taken or gone by the time the message is made: its own event tells'],
    ['participant.promoted', state('confirmed'), 'promoted', 'a promotion'],
    ['participant.promoted', state('cancelled'), null, 'cancelled since'],
    ['participant.offer_expired', state('confirmed'), 'change', 'an expired offer while holding other places'],
    ['participant.offer_expired', state('waitlisted', [waiting]), 'change', 'an expired offer while waiting in other lines'],
    ['participant.offer_expired', state('cancelled'), null, 'an expiry that cancelled it: participant.canceled follows'],
    ['participant.checked_in', state('attended'), null, "the organizer's record of the day"],
    ['participant.no_show', state('no_show'), null, "the organizer's record of the day"],
    ['signup.updated', state('confirmed'), 'change', 'a new date or place of the signup'],
    ['signup.updated', state('waitlisted', [waiting]), 'change', 'a new date while waiting in line'],
    ['signup.updated', state('cancelled'), null, 'a cancelled registration is not told of the signup any more'],
    ['signup.updated', state('attended'), null, 'the day is recorded'],
    ['slot.updated', state('confirmed'), 'change', "a slot's new times"],
    ['slot.updated', state('offered', [offered]), 'change', 'new times of a slot it is offered'],
    ['slot.updated', state('no_show'), null, 'the day is recorded'],
  ])('%s (%j) gives %s: %s', (type, participant, kind) => {
    expect(messageKindFor(type, participant)).toBe(kind);
  });

  it('names seven kinds', () => {
    expect(MESSAGE_KINDS).toEqual(['confirmation', 'change', 'cancellation', 'waitlisted', 'offer', 'promoted', 'reminder']);
  });
});
