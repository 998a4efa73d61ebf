import { Module } from '@nestjs/common';
import { AnalyticsModule } from './analytics/analytics.module.js';
import { ParticipantsModule } from './participants/participants.module.js';
import { SignupsModule } from './signups/signups.module.js';

@Module({ imports: [SignupsModule, ParticipantsModule, AnalyticsModule] })
export class SignupsServiceModule {}
