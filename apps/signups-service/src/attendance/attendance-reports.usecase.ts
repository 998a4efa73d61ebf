import { Injectable } from '@nestjs/common';
import { type AttendanceView, type HoursReportView, REPORT_MAX_DAYS, REPORT_MAX_ROWS } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Owner } from '../signups/signup.js';
import { requireOwned } from '../signups/signup.policy.js';
import { SignupsRepository } from '../signups/signups.repository.js';
import { attendanceRate } from './attendance.js';
import { AttendanceRepository } from './attendance.repository.js';

const DAY_MS = 86_400_000;

export interface HoursReportCommand {
  owner: Owner;
  /** UTC days, YYYY-MM-DD, both included. */
  from: string;
  to: string;
}

/** The attendance of an owned signup, and the hours served over an organization's signups, computed live. */
@Injectable()
export class AttendanceReportsUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly attendance: AttendanceRepository,
  ) {}

  async summary(owner: Owner, signupId: string): Promise<AttendanceView> {
    const signup = requireOwned(await this.signups.findById(signupId), owner);
    const [counts, total, attendees] = await Promise.all([
      this.attendance.counts(signup.id),
      this.attendance.totalHours(signup.id),
      this.attendance.attendees(signup.id, REPORT_MAX_ROWS + 1),
    ]);
    return {
      signupId: signup.id,
      ...counts,
      expected: counts.confirmed + counts.attended + counts.noShow,
      attendanceRate: attendanceRate(counts.attended, counts.noShow),
      hoursServed: {
        total,
        participants: attendees.slice(0, REPORT_MAX_ROWS).map((a) => ({ ...a, checkedInAt: a.checkedInAt.toISOString() })),
        truncated: attendees.length > REPORT_MAX_ROWS,
      },
    };
  }

  /**
   * The signups of the owner whose eventDate falls on a day from `from` to `to` (UTC, both
   * included): `to` may not be before `from`, nor more than REPORT_MAX_DAYS days after it (422 on `to`).
   */
  async hours({ owner, from, to }: HoursReportCommand): Promise<HoursReportView> {
    const start = new Date(`${from}T00:00:00.000Z`);
    const until = new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS);
    const days = (until.getTime() - start.getTime()) / DAY_MS;
    if (days < 1) throw ProblemError.validation([{ path: 'to', message: 'Must not be before from' }]);
    if (days > REPORT_MAX_DAYS)
      throw ProblemError.validation([{ path: 'to', message: `Must be at most ${REPORT_MAX_DAYS} days from from` }]);
    const [totalHours, signups, people] = await Promise.all([
      this.attendance.totalHoursBetween(owner, start, until),
      this.attendance.hoursBySignup(owner, start, until, REPORT_MAX_ROWS + 1),
      this.attendance.hoursByPerson(owner, start, until, REPORT_MAX_ROWS + 1),
    ]);
    return {
      from,
      to,
      totalHours,
      signups: signups.slice(0, REPORT_MAX_ROWS).map((s) => ({ ...s, eventDate: s.eventDate.toISOString() })),
      participants: people.slice(0, REPORT_MAX_ROWS),
      truncated: signups.length > REPORT_MAX_ROWS || people.length > REPORT_MAX_ROWS,
    };
  }
}
