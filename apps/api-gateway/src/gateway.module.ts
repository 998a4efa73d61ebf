import { type DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR, HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { oauthIssuer } from '#libs/contracts';
import { edgeProviders } from '#libs/edge';
import type { AppContext } from '#libs/runtime';
import { AnalyticsController } from './analytics/analytics.controller.js';
import { AssetsController } from './assets/assets.controller.js';
import { AttendanceController } from './attendance/attendance.controller.js';
import { ReportsController } from './attendance/reports.controller.js';
import { CalendarFeedController } from './calendars/calendar-feed.controller.js';
import { CalendarsController } from './calendars/calendars.controller.js';
import { dashboardService } from './dashboard/dashboard.providers.js';
import { DashboardService } from './dashboard/dashboard.service.js';
import { DraftsPagesController } from './dashboard/drafts-pages.controller.js';
import { ParticipantsPagesController } from './dashboard/participants-pages.controller.js';
import { RemindersPagesController } from './dashboard/reminders-pages.controller.js';
import { SignInController } from './dashboard/sign-in.controller.js';
import { SignupsPagesController } from './dashboard/signups-pages.controller.js';
import { WebhooksPagesController } from './dashboard/webhooks-pages.controller.js';
import { EventsController } from './events/events.controller.js';
import type { GatewayConfig } from './gateway.config.js';
import { ConditionalRequestsInterceptor } from './http/conditional-requests.js';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency/idempotency.store.js';
import { MeController } from './me/me.controller.js';
import { MailboxController } from './pages/mailbox.controller.js';
import { PagesController } from './pages/pages.controller.js';
import { UnsubscribeController } from './pages/unsubscribe.controller.js';
import { ParticipantExportsController } from './participants/participant-exports.controller.js';
import { ParticipantsController } from './participants/participants.controller.js';
import { ProblemPagesController } from './problems/problem-pages.controller.js';
import { PublicSignupsController } from './public/public-signups.controller.js';
import { RegistrationsController } from './registrations/registrations.controller.js';
import { EmailsController } from './reminders/emails.controller.js';
import { RemindersController } from './reminders/reminders.controller.js';
import { TwilioInboundController } from './reminders/twilio-inbound.controller.js';
import { SeriesController } from './series/series.controller.js';
import { SignupsController } from './signups/signups.controller.js';
import { ItemsController } from './slots-items/items.controller.js';
import { SlotsController } from './slots-items/slots.controller.js';
import { WaitlistController } from './waitlist/waitlist.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';

@Module({})
export class GatewayModule {
  static register(context: AppContext<GatewayConfig>): DynamicModule {
    const { config, dataSource } = context;
    if (!dataSource) throw new Error('The gateway runs on its own schema (idempotency records)');
    return {
      module: GatewayModule,
      controllers: [
        MeController,
        SignupsController,
        SeriesController,
        SlotsController,
        ItemsController,
        ParticipantsController,
        ParticipantExportsController,
        WaitlistController,
        AnalyticsController,
        AttendanceController,
        ReportsController,
        PublicSignupsController,
        RegistrationsController,
        PagesController,
        CalendarsController,
        CalendarFeedController,
        ProblemPagesController,
        AssetsController,
        WebhooksController,
        EventsController,
        RemindersController,
        EmailsController,
        TwilioInboundController,
        UnsubscribeController,
        ...(config.mailboxPage ? [MailboxController] : []),
        SignInController,
        DraftsPagesController,
        SignupsPagesController,
        RemindersPagesController,
        ParticipantsPagesController,
        WebhooksPagesController,
      ],
      providers: [
        ...edgeProviders({
          bus: context.bus,
          tokens: { issuer: oauthIssuer(config.authUrl), audience: config.publicBaseUrl },
          limits: config,
          redisUrl: context.redisUrl,
          logger: context.logger,
          metrics: context.metrics,
        }),
        { provide: IdempotencyStore, useValue: new IdempotencyStore(dataSource) },
        {
          provide: DashboardService,
          inject: [HttpAdapterHost],
          useFactory: (host: HttpAdapterHost) => dashboardService(context, () => host.httpAdapter.getInstance<FastifyInstance>()),
        },
        { provide: APP_INTERCEPTOR, useClass: ConditionalRequestsInterceptor },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
    };
  }
}
