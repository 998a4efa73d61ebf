import { Module } from '@nestjs/common';
import { EndpointRules } from './endpoint-rules.js';
import { EndpointsHandlers } from './endpoints.handlers.js';
import { EndpointsRepository } from './endpoints.repository.js';
import { CreateEndpointUseCase } from './usecases/create-endpoint.usecase.js';
import { ManageEndpointsUseCase } from './usecases/manage-endpoints.usecase.js';
import { TestEndpointUseCase } from './usecases/test-endpoint.usecase.js';

/** Webhook endpoints: registration within the tier cap, sealed secrets and their rotation, pausing, tests. */
@Module({
  providers: [EndpointRules, EndpointsRepository, CreateEndpointUseCase, ManageEndpointsUseCase, TestEndpointUseCase, EndpointsHandlers],
  exports: [EndpointsHandlers, EndpointRules],
})
export class EndpointsModule {}
