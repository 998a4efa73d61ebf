export { type CalendarEvent, type CalendarPart } from './calendar-part.js';
export { composeParticipantMessage, type ParticipantMessage } from './compose.js';
export { isNews, messageFingerprint } from './fingerprint.js';
export { MESSAGE_KINDS, type MessageKind, messageKindFor, type ParticipantEventType, type ParticipantState } from './message-kind.js';
export { displayName } from './safe-text.js';
