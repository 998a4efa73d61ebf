import { Module } from '@nestjs/common';
import { AnalyticsModule } from './analytics/analytics.module.js';
import { AttendanceModule } from './attendance/attendance.module.js';
import { CalendarFeedsModule } from './calendars/calendar-feeds.module.js';
import { DraftsModule } from './drafts/drafts.module.js';
import { ParticipantsModule } from './participants/participants.module.js';
import { SeriesModule } from './series/series.module.js';
import { SignupsModule } from './signups/signups.module.js';

@Module({
  imports: [SignupsModule, ParticipantsModule, AttendanceModule, CalendarFeedsModule, AnalyticsModule, DraftsModule, SeriesModule],
})
export class SignupsServiceModule {}
