import type { DataSourceSpec } from '#libs/persistence';
import { type AppDefinition, serving } from '#libs/runtime';
import { AnalyticsHandlers } from './analytics/analytics.handlers.js';
import { AttendanceHandlers } from './attendance/attendance.handlers.js';
import { CalendarFeedsHandlers } from './calendars/calendar-feeds.handlers.js';
import { DraftsHandlers } from './drafts/drafts.handlers.js';
import { CreateSignups1795314296671 } from './migrations/1795314296671-CreateSignups.js';
import { AddSlotsItemsParticipants1795316562081 } from './migrations/1795316562081-AddSlotsItemsParticipants.js';
import { AddDailyCreations1795500000000 } from './migrations/1795500000000-AddDailyCreations.js';
import { AddAiDraftUsage1795700000000 } from './migrations/1795700000000-AddAiDraftUsage.js';
import { OutboxTraceContext1796000000000 } from './migrations/1796000000000-OutboxTraceContext.js';
import { Retention1796450000000 } from './migrations/1796450000000-Retention.js';
import { Waitlist1796600000000 } from './migrations/1796600000000-Waitlist.js';
import { AddQuestions1796610000000 } from './migrations/1796610000000-AddQuestions.js';
import { Attendance1796620000000 } from './migrations/1796620000000-Attendance.js';
import { CalendarFeeds1796635000000 } from './migrations/1796635000000-CalendarFeeds.js';
import { SealedConfirmationTokens1796650000000 } from './migrations/1796650000000-SealedConfirmationTokens.js';
import { SignupTimeZone1796700000010 } from './migrations/1796700000010-SignupTimeZone.js';
import { ReminderHoursBefore1796760000000 } from './migrations/1796760000000-ReminderHoursBefore.js';
import { SignupSeries1796800000000 } from './migrations/1796800000000-SignupSeries.js';
import { ParticipantsHandlers } from './participants/participants.handlers.js';
import { RegistrationsHandlers } from './participants/registrations.handlers.js';
import { RemindedConsumer } from './participants/reminded.consumer.js';
import { WaitlistHandlers } from './participants/waitlist.handlers.js';
import { SIGNUPS_SCHEMA } from './schema.js';
import { SeriesHandlers } from './series/series.handlers.js';
import { SignupsHandlers } from './signups/signups.handlers.js';
import { SlotsItemsHandlers } from './signups/slots-items.handlers.js';
import { signupsServiceSpec } from './signups-service.config.js';
import { SignupsServiceModule } from './signups-service.module.js';
import { OfferExpiry } from './waitlist/offer-expiry.js';

export const signupsDataSourceSpec: DataSourceSpec = {
  schema: SIGNUPS_SCHEMA,
  entities: [],
  migrations: [
    CreateSignups1795314296671,
    AddSlotsItemsParticipants1795316562081,
    AddDailyCreations1795500000000,
    AddAiDraftUsage1795700000000,
    OutboxTraceContext1796000000000,
    Retention1796450000000,
    Waitlist1796600000000,
    AddQuestions1796610000000,
    Attendance1796620000000,
    CalendarFeeds1796635000000,
    SealedConfirmationTokens1796650000000,
    SignupTimeZone1796700000010,
    ReminderHoursBefore1796760000000,
    SignupSeries1796800000000,
  ],
};

/**
 * The signup domain: serves signups.* on the bus and publishes signup, participant, slot and item
 * events through its outbox; follows reminder.sent for each participant's remindedAt.
 */
export const signupsServiceApp: AppDefinition<typeof signupsServiceSpec> = {
  name: 'signups-service',
  config: signupsServiceSpec,
  database: signupsDataSourceSpec,
  module: () => ({ module: SignupsServiceModule }),
  serve: serving('signups', (app) => ({
    ...app.get(SignupsHandlers).handlers(),
    ...app.get(SlotsItemsHandlers).handlers(),
    ...app.get(ParticipantsHandlers).handlers(),
    ...app.get(RegistrationsHandlers).handlers(),
    ...app.get(WaitlistHandlers).handlers(),
    ...app.get(AttendanceHandlers).handlers(),
    ...app.get(CalendarFeedsHandlers).handlers(),
    ...app.get(AnalyticsHandlers).handlers(),
    ...app.get(DraftsHandlers).handlers(),
    ...app.get(SeriesHandlers).handlers(),
  })),
  async start(app) {
    await app.get(RemindedConsumer).start();
    app.get(OfferExpiry).start();
  },
};
