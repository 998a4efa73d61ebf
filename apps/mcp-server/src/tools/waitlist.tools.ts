import { ParticipantView, WaitlistPageView } from '#libs/contracts';
import { EntryRef, ListWaitlistArgs } from './args.js';
import { CHANGE, defineTool, READ } from './tool.js';

export const WAITLIST_TOOLS = [
  defineTool({
    name: 'list_waitlist',
    title: 'List the waitlist',
    description:
      "Lists who waits for a place in a signup whose waitlist is on, oldest first, with each entry's line (type signup: the signup " +
      'itself is full; slot or item: that one is), position (1 is next) and state (waiting, or offered until offerExpiresAt), and ' +
      "the person's name and email (personal data: share only with the organizer). Filter with type and targetId. 20 per page " +
      '(limit up to 100); when nextCursor is not null, call again with cursor set to it.',
    subject: 'signups.waitlist.list',
    input: ListWaitlistArgs,
    output: WaitlistPageView,
    hints: READ,
    run: ({ signupId, limit, cursor, type, targetId }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), query: { limit, cursor, type, targetId } }),
  }),
  defineTool({
    name: 'promote_from_waitlist',
    title: 'Promote from the waitlist',
    description:
      'Gives a waiting person (entryId from list_waitlist) a free place of their slot, item or signup now, ahead of the line, or ' +
      'accepts the place offered to them. Answers the participant with their new status. conflict when no place is free (raise ' +
      "the slot's capacity, the item's quantity or maxParticipants, or remove someone, first), or when the person still waits for " +
      'a place in the signup itself (promote that entry first); not_found once the entry left its line.',
    subject: 'signups.waitlist.promote',
    input: EntryRef,
    output: ParticipantView,
    hints: { ...CHANGE, destructiveHint: false },
    run: ({ signupId, entryId }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), id: entryId.toLowerCase() }),
  }),
  defineTool({
    name: 'remove_from_waitlist',
    title: 'Remove from the waitlist',
    description:
      'Takes a person out of one line (entryId from list_waitlist): those behind move up, and a place offered to them passes to the ' +
      'next in line. A person left holding nothing and waiting for nothing is cancelled. Answers the participant. not_found once the ' +
      'entry left its line. Confirm with the organizer first.',
    subject: 'signups.waitlist.remove',
    input: EntryRef,
    output: ParticipantView,
    hints: CHANGE,
    run: ({ signupId, entryId }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), id: entryId.toLowerCase() }),
  }),
];
