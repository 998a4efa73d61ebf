export {
  buildCalendar,
  type CalendarEvent,
  type CalendarInput,
  type CalendarMethod,
  type CalendarPerson,
  type EventStatus,
} from './calendar.js';
export {
  calendarUid,
  participantEvents,
  sequenceOf,
  signupEvents,
  uidHost,
  type CalendarParticipant,
  type CalendarSignup,
  type CalendarSlot,
} from './events.js';
export { googleCalendarLink, outlookCalendarLink } from './links.js';
export { TEXT_LIMITS } from './text.js';
