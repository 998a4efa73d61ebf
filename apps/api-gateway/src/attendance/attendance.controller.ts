import { Controller, Delete, Get, HttpCode, Inject, Patch, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import { AttendanceView, CheckInDto, ParticipantView, type Principal, UpdateAttendanceDto } from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { NoStore } from '../http/personal-data.js';
import { UuidParam, ValidBody, ValidOptionalBody } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

const ATTENDANCE_PROBLEMS = ['scope_required', 'forbidden', 'not_found', 'conflict', 'validation_failed'] as const;
const ON_THE_DAY =
  'Only a confirmed participant (or one already checked in or marked a no-show) can be: a participant waiting in line, offered a place or ' +
  'cancelled is 409 conflict.';

@ApiTags('attendance')
@Controller('signups/:id')
export class AttendanceController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post('participants/:participantId/check-in')
  @NoStore()
  @HttpCode(200)
  @Operation('signups.attendance.check_in')
  @ApiOperation({
    summary: 'Check a participant in (status attended), with the hours they served',
    description:
      `${ON_THE_DAY} hoursServed defaults to the sum of the lengths of the participant's slots that have a start and an end time (0 without). ` +
      'A no-show mark is replaced. Checking in again changes only hoursServed, when given. Emits participant.checked_in.',
  })
  @ApiBody({ type: CheckInDto, required: false })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems([...ATTENDANCE_PROBLEMS])
  checkIn(
    @UuidParam('id') signupId: string,
    @UuidParam('participantId') id: string,
    @ValidOptionalBody(CheckInDto) input: CheckInDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ParticipantView> {
    const body = input.hoursServed === undefined ? {} : { hoursServed: input.hoursServed };
    return this.bus.request('signups.attendance.check_in', { principal, signupId, id, input: body });
  }

  @Delete('participants/:participantId/check-in')
  @NoStore()
  @Operation('signups.attendance.undo_check_in')
  @IfMatchChecked('participant')
  @ApiOperation({
    summary: 'Undo a check-in: confirmed again, hours cleared',
    description: 'A confirmed participant is answered as it is; any other not checked in is 409 conflict. Emits participant.updated.',
  })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems([...ATTENDANCE_PROBLEMS])
  undoCheckIn(
    @UuidParam('id') signupId: string,
    @UuidParam('participantId') id: string,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ParticipantView> {
    return this.bus.request('signups.attendance.undo_check_in', { principal, signupId, id, ifMatch });
  }

  @Post('participants/:participantId/no-show')
  @NoStore()
  @HttpCode(200)
  @Operation('signups.attendance.no_show')
  @ApiOperation({
    summary: 'Mark a participant a no-show',
    description: `${ON_THE_DAY} A check-in and its hours are replaced. Emits participant.no_show.`,
  })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems([...ATTENDANCE_PROBLEMS])
  markNoShow(
    @UuidParam('id') signupId: string,
    @UuidParam('participantId') id: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ParticipantView> {
    return this.bus.request('signups.attendance.no_show', { principal, signupId, id });
  }

  @Delete('participants/:participantId/no-show')
  @NoStore()
  @Operation('signups.attendance.undo_no_show')
  @IfMatchChecked('participant')
  @ApiOperation({
    summary: 'Undo a no-show mark: confirmed again',
    description: 'A confirmed participant is answered as it is; any other not marked a no-show is 409 conflict. Emits participant.updated.',
  })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems([...ATTENDANCE_PROBLEMS])
  undoNoShow(
    @UuidParam('id') signupId: string,
    @UuidParam('participantId') id: string,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ParticipantView> {
    return this.bus.request('signups.attendance.undo_no_show', { principal, signupId, id, ifMatch });
  }

  @Patch('participants/:participantId/attendance')
  @NoStore()
  @Operation('signups.attendance.update')
  @IfMatchChecked('participant')
  @ApiOperation({
    summary: 'Change the hours a checked-in participant served',
    description: 'A participant not checked in is 409 conflict. Emits participant.updated when the hours change.',
  })
  @ApiBody({ type: UpdateAttendanceDto })
  @ApiOkResponse({ type: ParticipantView })
  @ApiProblems([...ATTENDANCE_PROBLEMS])
  updateHours(
    @UuidParam('id') signupId: string,
    @UuidParam('participantId') id: string,
    @ValidBody(UpdateAttendanceDto) input: UpdateAttendanceDto,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<ParticipantView> {
    return this.bus.request('signups.attendance.update', { principal, signupId, id, ifMatch, input: { hoursServed: input.hoursServed } });
  }

  @Get('attendance')
  @Operation('signups.attendance.get')
  @NoStore()
  @ApiOperation({
    summary: "A signup's attendance: counts, attendance rate and the hours each participant checked in served, computed live",
  })
  @ApiOkResponse({ type: AttendanceView })
  @ApiProblems(['scope_required', 'forbidden', 'not_found', 'validation_failed'])
  get(@UuidParam('id') signupId: string, @CurrentPrincipal() principal: Principal): Promise<AttendanceView> {
    return this.bus.request('signups.attendance.get', { principal, signupId });
  }
}
