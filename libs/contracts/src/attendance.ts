import { ApiProperty } from '@nestjs/swagger';
import { DateField, DecimalField } from './validation.js';

/** Hours served by one participant at one signup: 0 to 1000, to the hundredth. */
export const HOURS_SERVED = { min: 0, max: 1000, decimals: 2 } as const;

/** The longest range of GET /reports/hours, in days (a leap year, both ends included). */
export const REPORT_MAX_DAYS = 366;

/** POST /signups/{id}/participants/{participantId}/check-in (the body is optional). */
export class CheckInDto {
  @DecimalField({
    ...HOURS_SERVED,
    description:
      "Hours served, 0 to 1000 with at most 2 decimals. Default: the sum of the participant's slots' lengths (those with a start and an end time).",
  })
  hoursServed?: number;
}

/** PATCH /signups/{id}/participants/{participantId}/attendance: a checked-in participant's hours. */
export class UpdateAttendanceDto {
  @DecimalField({ ...HOURS_SERVED, required: true, description: 'Hours served, 0 to 1000 with at most 2 decimals.' })
  hoursServed!: number;
}

export type CheckInInput = { hoursServed?: number };
export type UpdateAttendanceInput = { hoursServed: number };

/** GET /reports/hours */
export class HoursReportQueryDto {
  @DateField({ required: true, description: 'First day (UTC) of the range, YYYY-MM-DD.', example: '2026-01-01' }) from!: string;
  @DateField({ required: true, description: 'Last day (UTC) of the range, included; at most 366 days after from.', example: '2026-12-31' })
  to!: string;
}

export type HoursReportQuery = { from: string; to: string };

/** A participant checked in at a signup, with their hours. */
export class AttendeeView {
  @ApiProperty({ format: 'uuid' }) participantId!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ format: 'date-time' }) checkedInAt!: string;
  @ApiProperty() hoursServed!: number;
}

/** The longest list a report answers: past it, the list is cut and says so (the totals still count everything). */
export const REPORT_MAX_ROWS = 1000;

class HoursTotalView {
  @ApiProperty({ description: 'Hours served by every participant checked in.' }) total!: number;
  @ApiProperty({
    type: AttendeeView,
    isArray: true,
    description: `Each participant checked in, in the order they were: the first ${REPORT_MAX_ROWS}.`,
  })
  participants!: AttendeeView[];
  @ApiProperty({ description: `Whether more than ${REPORT_MAX_ROWS} were checked in, so participants lists only the first.` })
  truncated!: boolean;
}

/** GET /signups/{id}/attendance, computed live. */
export class AttendanceView {
  @ApiProperty({ format: 'uuid' }) signupId!: string;
  @ApiProperty({ type: 'integer', description: 'Confirmed participants neither checked in nor marked no-show yet.' }) confirmed!: number;
  @ApiProperty({ type: 'integer', description: 'Participants checked in so far.' }) attended!: number;
  @ApiProperty({ type: 'integer', description: 'Participants marked no-show.' }) noShow!: number;
  @ApiProperty({ type: 'integer', description: 'Participants expected on the day: confirmed + attended + noShow.' }) expected!: number;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'attended / (attended + noShow), to 4 decimals; null while nobody is checked in or marked no-show.',
  })
  attendanceRate!: number | null;
  @ApiProperty({ type: HoursTotalView }) hoursServed!: HoursTotalView;
}

export class SignupHoursView {
  @ApiProperty({ format: 'uuid' }) signupId!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ format: 'date-time' }) eventDate!: string;
  @ApiProperty({ type: 'integer', description: 'Participants checked in.' }) attended!: number;
  @ApiProperty() hoursServed!: number;
}

export class PersonHoursView {
  @ApiProperty({ description: 'In lower case: one person under one address, whatever case each registration used.' }) email!: string;
  @ApiProperty({ type: 'integer', description: 'Signups of the range this person was checked in at.' }) signups!: number;
  @ApiProperty() hoursServed!: number;
}

/** GET /reports/hours: the hours served at the signups of the caller's organization and mode whose eventDate is in the range. */
export class HoursReportView {
  @ApiProperty({ format: 'date' }) from!: string;
  @ApiProperty({ format: 'date' }) to!: string;
  @ApiProperty({ description: 'Every hour served in the range.' }) totalHours!: number;
  @ApiProperty({
    type: SignupHoursView,
    isArray: true,
    description: `The signups of the range, by eventDate, then id: the first ${REPORT_MAX_ROWS}.`,
  })
  signups!: SignupHoursView[];
  @ApiProperty({
    type: PersonHoursView,
    isArray: true,
    description: `Everyone checked in in the range, most hours first, then by email: the first ${REPORT_MAX_ROWS}.`,
  })
  participants!: PersonHoursView[];
  @ApiProperty({ description: `Whether signups or participants had more than ${REPORT_MAX_ROWS} entries, and list only the first.` })
  truncated!: boolean;
}
