import { Module } from '@nestjs/common';
import { SignupsModule } from '../signups/signups.module.js';
import { CalendarFeedsHandlers } from './calendar-feeds.handlers.js';
import { CalendarFeedsRepository } from './calendar-feeds.repository.js';
import { CalendarFeedsUseCase } from './calendar-feeds.usecase.js';

/** Each organization's secret calendar feed address, and what the feed shows. */
@Module({
  imports: [SignupsModule],
  providers: [CalendarFeedsRepository, CalendarFeedsUseCase, CalendarFeedsHandlers],
  exports: [CalendarFeedsHandlers],
})
export class CalendarFeedsModule {}
