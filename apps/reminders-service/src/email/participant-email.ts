import type { ParticipantMessageContext } from '#libs/contracts';
import { composeParticipantMessage, displayName, type MessageKind } from '../messages/index.js';
import type { EmailContent } from './emails.js';
import { inviteOf } from './invite.js';

/** The email of `kind` to a participant, from its organization, with its invitation (organized by `fromAddress`) when it carries one. */
export function participantEmail(
  context: ParticipantMessageContext,
  organizationName: string,
  kind: MessageKind,
  fromAddress: string,
): EmailContent {
  const message = composeParticipantMessage(context, organizationName, kind);
  return {
    subject: message.subject,
    text: message.text,
    html: message.html,
    calendar: message.calendar ? inviteOf(message.calendar, context, { name: displayName(organizationName), email: fromAddress }) : null,
  };
}
