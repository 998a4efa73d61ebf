import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { HealthIndicator } from '#libs/observability';
import { postgresHealth } from '#libs/persistence';
import { DeclarationGuard } from '#libs/scopes';
import type { AppContext } from './app-definition.js';
import { OpsController, ShutdownState } from './ops.controller.js';
import { Outbox } from './outbox.js';
import { APP_CONFIG, APP_CONTEXT, BUS, DATA_SOURCE, HEALTH_INDICATORS, LOGGER, METRICS } from './tokens.js';

function indicatorsOf(context: AppContext): HealthIndicator[] {
  const indicators: HealthIndicator[] = [{ name: 'bus', check: () => context.bus.ping() }];
  if (context.dataSource) indicators.unshift(postgresHealth(context.dataSource));
  return indicators;
}

/** Makes the app's adapters injectable everywhere, serves the ops routes and refuses undeclared routes. */
@Module({})
export class RuntimeModule {
  /** `shutdown` is the app's own: /readyz reports it (a new one, never begun, when not given). */
  static forApp(context: AppContext, shutdown = new ShutdownState()): DynamicModule {
    const providers = [
      { provide: APP_CONTEXT, useValue: context },
      { provide: APP_CONFIG, useValue: context.config },
      { provide: BUS, useValue: context.bus },
      { provide: LOGGER, useValue: context.logger },
      { provide: METRICS, useValue: context.metrics },
      { provide: HEALTH_INDICATORS, useValue: indicatorsOf(context) },
      { provide: ShutdownState, useValue: shutdown },
      ...(context.dataSource ? [{ provide: DATA_SOURCE, useValue: context.dataSource }] : []),
      ...(context.outbox ? [{ provide: Outbox, useValue: context.outbox }] : []),
    ];
    return {
      module: RuntimeModule,
      global: true,
      controllers: [OpsController],
      providers: [...providers, { provide: APP_GUARD, useClass: DeclarationGuard }],
      exports: providers.map((p) => p.provide),
    };
  }
}
