import { Injectable } from '@nestjs/common';
import {
  CheckInDto,
  type HandlersOf,
  HoursReportQueryDto,
  type Principal,
  requireUuid,
  UpdateAttendanceDto,
  validateInput,
} from '#libs/contracts';
import { participantView } from '../participants/participant.presenter.js';
import { ownerOf } from '../signups/signup.js';
import { AttendanceUseCase } from './attendance.usecase.js';
import { AttendanceReportsUseCase } from './attendance-reports.usecase.js';

type AttendanceSubject =
  `signups.attendance.${'check_in' | 'undo_check_in' | 'no_show' | 'undo_no_show' | 'update' | 'get'}` | 'signups.reports.hours';

/**
 * signups.attendance.*: the organizer checks participants in, marks no-shows and records hours
 * (participants:write), and reads a signup's attendance (participants:read: it names people), owner only;
 * signups.reports.hours: the hours served over the caller's organization and mode (participants:read).
 */
@Injectable()
export class AttendanceHandlers {
  constructor(
    private readonly attendance: AttendanceUseCase,
    private readonly reports: AttendanceReportsUseCase,
  ) {}

  handlers(): Pick<HandlersOf<'signups'>, AttendanceSubject> {
    const command = ({ principal, signupId, id, ifMatch }: { principal: Principal; signupId: string; id: string; ifMatch?: string }) => ({
      owner: ownerOf(principal),
      signupId: requireUuid(signupId),
      id: requireUuid(id, 'participantId'),
      ifMatch,
    });
    return {
      'signups.attendance.check_in': async (req) => {
        const target = command(req);
        const { hoursServed } = await validateInput(CheckInDto, req.input);
        return participantView(await this.attendance.checkIn(target, hoursServed), req.principal.livemode);
      },
      'signups.attendance.undo_check_in': async (req) =>
        participantView(await this.attendance.undoCheckIn(command(req)), req.principal.livemode),
      'signups.attendance.no_show': async (req) => participantView(await this.attendance.markNoShow(command(req)), req.principal.livemode),
      'signups.attendance.undo_no_show': async (req) =>
        participantView(await this.attendance.undoNoShow(command(req)), req.principal.livemode),
      'signups.attendance.update': async (req) => {
        const target = command(req);
        const { hoursServed } = await validateInput(UpdateAttendanceDto, req.input);
        return participantView(await this.attendance.updateHours(target, hoursServed), req.principal.livemode);
      },
      'signups.attendance.get': ({ principal, signupId }) => this.reports.summary(ownerOf(principal), requireUuid(signupId)),
      'signups.reports.hours': async ({ principal, query }) => {
        const { from, to } = await validateInput(HoursReportQueryDto, query, 'query');
        return this.reports.hours({ owner: ownerOf(principal), from, to });
      },
    };
  }
}
