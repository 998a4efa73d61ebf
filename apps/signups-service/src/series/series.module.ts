import { Module } from '@nestjs/common';
import { SignupsModule } from '../signups/signups.module.js';
import { DuplicateSignupUseCase } from './duplicate-signup.usecase.js';
import { SeriesHandlers } from './series.handlers.js';
import { SeriesStatusUseCase } from './series-status.usecase.js';

/** Series of signups: a signup duplicated at other dates, and the acts on all of them at once. */
@Module({
  imports: [SignupsModule],
  providers: [DuplicateSignupUseCase, SeriesStatusUseCase, SeriesHandlers],
  exports: [SeriesHandlers],
})
export class SeriesModule {}
