import { AttendanceView, ParticipantView } from '#libs/contracts';
import { CheckInArgs, ParticipantRef, SignupRef } from './args.js';
import { CHANGE, defineTool, READ } from './tool.js';

const ON_THE_DAY =
  'Only a confirmed participant (or one already checked in or marked a no-show) can be; one waiting in line, offered a place or cancelled ' +
  'is a conflict.';

export const ATTENDANCE_TOOLS = [
  defineTool({
    name: 'check_in_participant',
    title: 'Check a participant in',
    description:
      `Checks a participant in on the day (status attended) and records the hours they served. ${ON_THE_DAY} hoursServed (0 to 1000, at ` +
      "most 2 decimals) defaults to the lengths of the participant's slots that have start and end times. Calling it again changes only " +
      'hoursServed, when given. Answers the participant (participant ids from list_participants).',
    subject: 'signups.attendance.check_in',
    input: CheckInArgs,
    output: ParticipantView,
    hints: CHANGE,
    run: ({ signupId, participantId, hoursServed }, { request, principal }) =>
      request({
        principal,
        signupId: signupId.toLowerCase(),
        id: participantId.toLowerCase(),
        input: hoursServed === undefined ? {} : { hoursServed },
      }),
  }),
  defineTool({
    name: 'mark_no_show',
    title: 'Mark a no-show',
    description:
      `Marks a participant who did not come as a no-show (a check-in and its hours are replaced). ${ON_THE_DAY} Answers the participant ` +
      '(participant ids from list_participants).',
    subject: 'signups.attendance.no_show',
    input: ParticipantRef,
    output: ParticipantView,
    hints: CHANGE,
    run: ({ signupId, participantId }, { request, principal }) =>
      request({ principal, signupId: signupId.toLowerCase(), id: participantId.toLowerCase() }),
  }),
  defineTool({
    name: 'get_attendance',
    title: 'Get attendance',
    description:
      "Reads a signup's attendance, computed live: how many are still confirmed, checked in (attended) and marked no-show, the " +
      'attendance rate (attended / (attended + noShow), null while nobody is either), and the hours each participant checked in ' +
      'served with their total (personal data: share only with the organizer).',
    subject: 'signups.attendance.get',
    input: SignupRef,
    output: AttendanceView,
    hints: READ,
    run: ({ signupId }, { request, principal }) => request({ principal, signupId: signupId.toLowerCase() }),
  }),
];
