import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import type { Bus } from '#libs/bus';
import { oauthIssuer } from '#libs/contracts';
import { Counters, CredentialGuard, CredentialVerifier, EdgeRateLimiter, RateLimitGuard } from '#libs/edge';
import { BUS, type AppContext } from '#libs/runtime';
import { AnalyticsController } from './analytics/analytics.controller.js';
import { GATEWAY_CONFIG, type GatewayConfig } from './gateway.config.js';
import { IdempotencyJanitor } from './idempotency/idempotency-janitor.js';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency/idempotency.store.js';
import { MeController } from './me/me.controller.js';
import { PagesController } from './pages/pages.controller.js';
import { ParticipantsController } from './participants/participants.controller.js';
import { ProblemPagesController } from './problems/problem-pages.controller.js';
import { PublicSignupsController } from './public/public-signups.controller.js';
import { RegistrationsController } from './registrations/registrations.controller.js';
import { RemindersController } from './reminders/reminders.controller.js';
import { TwilioInboundController } from './reminders/twilio-inbound.controller.js';
import { SignupsController } from './signups/signups.controller.js';
import { ItemsController } from './slots-items/items.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { SlotsController } from './slots-items/slots.controller.js';

/** Starts and stops the verifier's eviction subscription with the app, and closes the rate limit counters. */
class EdgeLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(CredentialVerifier) private readonly verifier: CredentialVerifier,
    @Inject(Counters) private readonly counters: Counters,
  ) {}

  onApplicationBootstrap(): Promise<void> {
    return this.verifier.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.verifier.stop();
    await this.counters.close();
  }
}

@Module({})
export class GatewayModule {
  static register(config: GatewayConfig, context: AppContext): DynamicModule {
    const { dataSource } = context;
    if (!dataSource) throw new Error('The gateway runs on its own schema (idempotency records)');
    return {
      module: GatewayModule,
      controllers: [
        MeController,
        SignupsController,
        SlotsController,
        ItemsController,
        ParticipantsController,
        AnalyticsController,
        PublicSignupsController,
        RegistrationsController,
        PagesController,
        ProblemPagesController,
        WebhooksController,
        RemindersController,
        TwilioInboundController,
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: CredentialVerifier,
          useFactory: (bus: Bus) => new CredentialVerifier(bus, { issuer: oauthIssuer(config.authUrl), audience: config.publicBaseUrl }),
          inject: [BUS],
        },
        { provide: Counters, useFactory: () => Counters.create(context.redisUrl, config.rateLimitPrefix, context.logger) },
        { provide: EdgeRateLimiter, useFactory: (counters: Counters) => new EdgeRateLimiter(counters, config), inject: [Counters] },
        EdgeLifecycle,
        { provide: IdempotencyStore, useValue: new IdempotencyStore(dataSource) },
        IdempotencyJanitor,
        // Global guards run in this order: authenticate, then count against the caller's budget.
        { provide: APP_GUARD, useClass: CredentialGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
    };
  }
}
