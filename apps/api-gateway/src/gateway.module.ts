import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Bus } from '#libs/bus';
import { CredentialGuard, CredentialVerifier } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { MeController } from './me/me.controller.js';
import { ProblemPagesController } from './problems/problem-pages.controller.js';
import { SignupsController } from './signups/signups.controller.js';

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
  static register(): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [MeController, SignupsController, ProblemPagesController],
      providers: [
        { provide: CredentialVerifier, useFactory: (bus: Bus) => new CredentialVerifier(bus), inject: [BUS] },
        VerifierLifecycle,
        { provide: APP_GUARD, useClass: CredentialGuard },
      ],
    };
  }
}
