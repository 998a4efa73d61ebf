export { type CalendarEvent, type CalendarPart } from './calendar-part.js';
export { composeParticipantMessage, type ParticipantMessage } from './compose.js';
export { contextAsOf, isNews, messageFingerprint } from './fingerprint.js';
export {
  MESSAGE_KINDS,
  type MailEventType,
  type MessageKind,
  messageKindFor,
  type ParticipantState,
  type SignupChangeEventType,
} from './message-kind.js';
export { displayName } from './safe-text.js';
