import { Injectable } from '@nestjs/common';
import {
  CreateWebhookDto,
  DEFAULT_PAGE_SIZE,
  type HandlersOf,
  PageQueryDto,
  requireUuid,
  UpdateWebhookDto,
  validateInput,
} from '#libs/contracts';
import { CreateEndpointUseCase } from './usecases/create-endpoint.usecase.js';
import { ManageEndpointsUseCase } from './usecases/manage-endpoints.usecase.js';
import { TestEndpointUseCase } from './usecases/test-endpoint.usecase.js';

/** The webhooks.* subjects: endpoint management for the edges (API keys only, checked before each handler runs). */
@Injectable()
export class EndpointsHandlers {
  constructor(
    private readonly createEndpoint: CreateEndpointUseCase,
    private readonly manage: ManageEndpointsUseCase,
    private readonly testEndpoint: TestEndpointUseCase,
  ) {}

  handlers(): Omit<HandlersOf<'webhooks'>, 'webhooks.deliveries.list' | 'webhooks.deliveries.replay' | 'webhooks.events.list'> {
    return {
      'webhooks.create': async ({ principal, input }) =>
        this.createEndpoint.execute(principal, await validateInput(CreateWebhookDto, input)),
      'webhooks.list': async ({ principal, query }) => {
        const { limit, cursor } = await validateInput(PageQueryDto, query, 'query');
        return this.manage.list(principal, limit ?? DEFAULT_PAGE_SIZE, cursor);
      },
      'webhooks.get': ({ principal, id }) => this.manage.get(principal, requireUuid(id)),
      'webhooks.update': async ({ principal, id, input, ifMatch }) =>
        this.manage.update(principal, requireUuid(id), await validateInput(UpdateWebhookDto, input), ifMatch),
      'webhooks.delete': ({ principal, id, ifMatch }) => this.manage.delete(principal, requireUuid(id), ifMatch),
      'webhooks.pause': ({ principal, id }) => this.manage.pause(principal, requireUuid(id)),
      'webhooks.resume': ({ principal, id }) => this.manage.resume(principal, requireUuid(id)),
      'webhooks.rotate': ({ principal, id }) => this.manage.rotate(principal, requireUuid(id)),
      'webhooks.test': ({ principal, id }) => this.testEndpoint.execute(principal, requireUuid(id)),
    };
  }
}
