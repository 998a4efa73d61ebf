import { Module } from '@nestjs/common';
import { loadConfig } from '#libs/config';
import { APP_CONTEXT, type AppContext } from '#libs/runtime';
import { WEBHOOKS_CONFIG, webhooksSpec } from '../webhooks.config.js';
import { EndpointRules } from './endpoint-rules.js';
import { EndpointsHandlers } from './endpoints.handlers.js';
import { EndpointsRepository } from './endpoints.repository.js';
import { CreateEndpointUseCase } from './usecases/create-endpoint.usecase.js';
import { ManageEndpointsUseCase } from './usecases/manage-endpoints.usecase.js';
import { TestEndpointUseCase } from './usecases/test-endpoint.usecase.js';

/** Webhook endpoints: registration within the tier cap, sealed secrets and their rotation, pausing, tests. */
@Module({
  providers: [
    { provide: WEBHOOKS_CONFIG, useFactory: (context: AppContext) => loadConfig(webhooksSpec, context.env), inject: [APP_CONTEXT] },
    EndpointRules,
    EndpointsRepository,
    CreateEndpointUseCase,
    ManageEndpointsUseCase,
    TestEndpointUseCase,
    EndpointsHandlers,
  ],
  exports: [EndpointsHandlers, EndpointRules, WEBHOOKS_CONFIG],
})
export class EndpointsModule {}
