import { Module } from '@nestjs/common';
import { ParticipantsModule } from '../participants/participants.module.js';
import { SignupsModule } from '../signups/signups.module.js';
import { AttendanceHandlers } from './attendance.handlers.js';
import { AttendanceRepository } from './attendance.repository.js';
import { AttendanceUseCase } from './attendance.usecase.js';
import { AttendanceReportsUseCase } from './attendance-reports.usecase.js';

/** Check-in, no-shows and hours served, a signup's attendance and the organization's hours report. */
@Module({
  imports: [SignupsModule, ParticipantsModule],
  providers: [AttendanceRepository, AttendanceUseCase, AttendanceReportsUseCase, AttendanceHandlers],
  exports: [AttendanceHandlers],
})
export class AttendanceModule {}
