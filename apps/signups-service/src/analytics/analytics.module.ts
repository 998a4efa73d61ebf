import { Module } from '@nestjs/common';
import { SignupsModule } from '../signups/signups.module.js';
import { AnalyticsHandlers } from './analytics.handlers.js';
import { AnalyticsRepository } from './analytics.repository.js';
import { SignupAnalyticsUseCase } from './analytics.usecase.js';

/** A signup's fill rates, gaps and registration pace, computed live. */
@Module({
  imports: [SignupsModule],
  providers: [AnalyticsRepository, SignupAnalyticsUseCase, AnalyticsHandlers],
  exports: [AnalyticsHandlers],
})
export class AnalyticsModule {}
