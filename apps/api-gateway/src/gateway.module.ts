import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Bus } from '#libs/bus';
import { oauthIssuer } from '#libs/contracts';
import { CredentialGuard, CredentialVerifier } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { AnalyticsController } from './analytics/analytics.controller.js';
import { GATEWAY_CONFIG, type GatewayConfig } from './gateway.config.js';
import { MeController } from './me/me.controller.js';
import { PagesController } from './pages/pages.controller.js';
import { ParticipantsController } from './participants/participants.controller.js';
import { ProblemPagesController } from './problems/problem-pages.controller.js';
import { PublicSignupsController } from './public/public-signups.controller.js';
import { RegistrationsController } from './registrations/registrations.controller.js';
import { SignupsController } from './signups/signups.controller.js';
import { ItemsController } from './slots-items/items.controller.js';
import { SlotsController } from './slots-items/slots.controller.js';

/** Starts and stops the verifier's eviction subscription with the app. */
class VerifierLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(CredentialVerifier) private readonly verifier: CredentialVerifier) {}

  onApplicationBootstrap(): Promise<void> {
    return this.verifier.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.verifier.stop();
  }
}

@Module({})
export class GatewayModule {
  static register(config: GatewayConfig): DynamicModule {
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
      ],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        {
          provide: CredentialVerifier,
          useFactory: (bus: Bus) => new CredentialVerifier(bus, { issuer: oauthIssuer(config.authUrl), audience: config.publicBaseUrl }),
          inject: [BUS],
        },
        VerifierLifecycle,
        { provide: APP_GUARD, useClass: CredentialGuard },
      ],
    };
  }
}
