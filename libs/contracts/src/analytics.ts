import { ApiProperty } from '@nestjs/swagger';

class FillRateView {
  @ApiProperty({ type: 'integer', description: 'Total places across slots and items.' }) capacity!: number;
  @ApiProperty({ description: 'Share taken, 0 to 1 (0 when there is no capacity).' }) ratio!: number;
}

class SlotStatView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ type: 'integer' }) capacity!: number;
  @ApiProperty({ type: 'integer' }) registered!: number;
  @ApiProperty() ratio!: number;
  @ApiProperty({ type: 'integer', description: 'Entries in its line: waiting, or offered a place.' }) waiting!: number;
}

class ItemStatView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer' }) needed!: number;
  @ApiProperty({ type: 'integer' }) claimed!: number;
  @ApiProperty() ratio!: number;
  @ApiProperty({ type: 'integer', description: 'Entries in its line: waiting, or offered a place.' }) waiting!: number;
}

class GapView {
  @ApiProperty({ enum: ['slot', 'item'] }) kind!: 'slot' | 'item';
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ type: 'integer' }) shortBy!: number;
}

class ResponseTimeView {
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) firstRegistrationAt!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastRegistrationAt!: string | null;
  @ApiProperty({ type: Number, nullable: true }) averageHoursBetweenRegistrations!: number | null;
}

class WaitlistStatsView {
  @ApiProperty({ type: 'integer', description: "Entries in the signup's own line (maxParticipants reached): waiting, or offered a place." })
  waiting!: number;
  @ApiProperty({ type: 'integer', description: 'Entries of every line moved into their place: at once, by an accepted offer or by hand.' })
  promotions!: number;
  @ApiProperty({ type: 'integer', description: 'Offers that ran out unanswered.' }) offersExpired!: number;
}

class RegistrationsOnDayView {
  @ApiProperty({ format: 'date', example: '2026-05-01', description: "A day in the signup's time zone." }) date!: string;
  @ApiProperty({ type: 'integer', minimum: 1 }) count!: number;
}

class AttendanceCountsView {
  @ApiProperty({ type: 'integer', description: 'Participants checked in.' }) attended!: number;
  @ApiProperty({ type: 'integer', description: 'Participants marked a no-show.' }) noShow!: number;
  @ApiProperty({ type: 'integer', description: 'Confirmed participants neither checked in nor marked a no-show yet.' }) unmarked!: number;
}

/** GET /signups/{id}/analytics, computed live. */
export class AnalyticsView {
  @ApiProperty({ format: 'uuid' }) signupId!: string;
  @ApiProperty({ type: 'integer' }) participantCount!: number;
  @ApiProperty({ type: 'integer', description: 'Places and quantities committed across all selections.' }) quantityCommitted!: number;
  @ApiProperty({ type: FillRateView }) fillRate!: FillRateView;
  @ApiProperty({ type: SlotStatView, isArray: true }) slots!: SlotStatView[];
  @ApiProperty({ type: ItemStatView, isArray: true }) items!: ItemStatView[];
  @ApiProperty({ type: GapView, isArray: true, description: 'Slots and items still short, most short first.' }) gaps!: GapView[];
  @ApiProperty({ type: ResponseTimeView }) responseTime!: ResponseTimeView;
  @ApiProperty({ type: WaitlistStatsView }) waitlist!: WaitlistStatsView;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'attended / (attended + noShow), to 4 decimals; null while nobody is checked in or marked a no-show.',
  })
  attendanceRate!: number | null;
  @ApiProperty({
    type: AttendanceCountsView,
    description: 'The participants by attendance, as GET /signups/{id}/attendance counts them (those waiting for a place are in none).',
  })
  attendance!: AttendanceCountsView;
  @ApiProperty({
    type: RegistrationsOnDayView,
    isArray: true,
    description:
      "Registrations made on each day, in the signup's time zone: every participant created that day, whatever became of it " +
      '(cancelled and waitlisted ones included, so the counts may add up to more than participantCount). Only days with ' +
      'registrations, oldest first; the latest 366 such days.',
  })
  registrationsByDay!: RegistrationsOnDayView[];
}
