import { ParticipantPageView, ParticipantView, RegistrationResultView, ReminderPassView, toRegistrationInput } from '#libs/contracts';
import { ListParticipantsArgs, ParticipantRef, RegisterParticipantArgs, RegisterSelfArgs, SendReminderArgs } from './args.js';
import { ADD, CHANGE, defineTool, READ, type ToolContext } from './tool.js';

/** The register tools' lead: the confirmation token before anything else, and what it is for. */
function confirmationLead({ confirmationToken }: RegistrationResultView, { publicOrigin }: ToolContext): string {
  if (confirmationToken === undefined) {
    return 'Nothing was stored: every selection failed (see failed[] for why). No confirmation token was issued.';
  }
  return (
    `Confirmation token: ${confirmationToken}\n` +
    'Keep this token and give it to the participant: it is shown only now, and it is the only way to view, change or cancel this ' +
    `registration, at ${publicOrigin}/r/${confirmationToken}`
  );
}

const REGISTRATION_RULES =
  'Each selection ({type: "slot" or "item", id, quantity defaulting to 1}) is allocated on its own: confirmed[] lists what was taken, failed[] ' +
  'what was not (full or not_found). A participant is stored when selections is empty or at least one was confirmed or waitlisted, and then the answer ' +
  'carries the confirmationToken. answers, keyed by question id (the questions of get_signup), answer its questions: text for short_text, ' +
  'long_text and single_choice (one of its options), a list of its options for multiple_choice, true or false for yes_no, a number ' +
  'within min and max for number; each required question needs one, and an answer that does not fit is validation_failed on ' +
  "answers.<questionId>. When the signup's waitlist is on, a selection that does not fit (or a registration past maxParticipants) " +
  'joins that line instead: waitlisted[] lists them with their positions, and the participant is moved in, or offered the place, ' +
  'when one frees.';

export const PARTICIPANT_TOOLS = [
  defineTool({
    name: 'list_participants',
    title: 'List participants',
    description:
      'Lists the people registered for a signup, newest first, with their contact details, what each signed up for and their status ' +
      '(personal data: share only with the organizer). Every status but cancelled, unless status names one (confirmed, waitlisted, ' +
      'offered, cancelled, attended, no_show). 20 per page (limit up to 100); when nextCursor is not null, call again with cursor set to it.',
    subject: 'signups.participants.list',
    input: ListParticipantsArgs,
    output: ParticipantPageView,
    hints: READ,
    run: ({ signupId, limit, cursor, status }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), query: { limit, cursor, status } }),
  }),
  defineTool({
    name: 'register_participant',
    title: 'Register a participant',
    description:
      'Registers someone (name, email, and a phone in international format when the signup requires one) for a published signup, for ' +
      `the slots and items they chose (ids from get_signup). ${REGISTRATION_RULES} The first line of the answer is the confirmation token: ` +
      'keep it and pass it on to the participant.',
    subject: 'signups.participants.register',
    input: RegisterParticipantArgs,
    output: RegistrationResultView,
    hints: ADD,
    run: ({ signupId, ...registration }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), input: toRegistrationInput(registration) }),
    lead: confirmationLead,
  }),
  defineTool({
    name: 'register_self',
    title: 'Sign me up',
    description:
      "Registers the user this connection acts for, under their account's email, for a published signup and the slots and items they " +
      `chose (ids from get_signup). ${REGISTRATION_RULES} The first line of the answer is the confirmation token: keep it for the user.`,
    subject: 'signups.participants.register',
    oneOfScopes: ['register:write', 'participants:write'],
    input: RegisterSelfArgs,
    output: RegistrationResultView,
    hints: ADD,
    async run({ signupId, name, ...registration }, { principal, request, me }) {
      const { email } = await me();
      const input = toRegistrationInput({ ...registration, name: name ?? email.slice(0, email.lastIndexOf('@')), email });
      return request({ principal, signupId: signupId.toLowerCase(), input });
    },
    lead: confirmationLead,
  }),
  defineTool({
    name: 'remove_participant',
    title: 'Remove a participant',
    description:
      'Cancels a participant of a signup and frees the places and quantities they held, which go to the first in line when the ' +
      'waitlist is on. The participant stays listed under status cancelled; cancelling again answers the same. Answers the ' +
      'cancelled participant. This cannot be undone: confirm with the organizer first.',
    subject: 'signups.participants.delete',
    input: ParticipantRef,
    output: ParticipantView,
    hints: CHANGE,
    run: ({ signupId, participantId }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), id: participantId.toLowerCase() }),
  }),
  defineTool({
    name: 'send_reminder',
    title: 'Send reminders',
    description:
      'Reminds the participants of a published signup who were not reminded of it yet. channel sms (the default) texts each participant with ' +
      "a phone who has not opted out, within the organization's daily SMS allowance (pro and org tiers); email (every tier) emails each " +
      "participant's address once, within the daily email allowance; both does each. Answers eligible, sent and failed (the sums) and " +
      'channels, each channel counted apart; those not reminded stay eligible, so calling again later reaches them and reminds nobody twice. ' +
      'notEligible counts, by reason, those never reminded: a number that is not a mobile or in a country the platform does not text ' +
      '(tell the organizer to ask for a mobile number), an address that bounced or unsubscribed. ' +
      'Sandbox connections store the texts and emails instead of sending them. A large pass may take a few minutes.',
    subject: 'reminders.passes.run',
    input: SendReminderArgs,
    output: ReminderPassView,
    hints: { ...ADD, idempotentHint: true, openWorldHint: true },
    run: ({ signupId, channel }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), ...(channel && { channel }) }),
  }),
];
