import { Injectable } from '@nestjs/common';
import {
  CreateWebhookDto, DEFAULT_PAGE_SIZE, PageQueryDto, UpdateWebhookDto, requireUuid, validateInput, type HandlersOf,
} from '#libs/contracts';
import { assertApiKey } from './endpoint.js';
import { CreateEndpointUseCase } from './usecases/create-endpoint.usecase.js';
import { ManageEndpointsUseCase } from './usecases/manage-endpoints.usecase.js';
import { TestEndpointUseCase } from './usecases/test-endpoint.usecase.js';

/** The webhooks.* subjects: endpoint management for the edges. */
@Injectable()
export class EndpointsHandlers {
  constructor(
    private readonly createEndpoint: CreateEndpointUseCase,
    private readonly manage: ManageEndpointsUseCase,
    private readonly testEndpoint: TestEndpointUseCase,
  ) {}

  handlers(): Omit<HandlersOf<'webhooks'>, 'webhooks.deliveries.list' | 'webhooks.deliveries.replay'> {
    return {
      'webhooks.create': async ({ principal, input }) => this.createEndpoint.execute(assertApiKey(principal), await validateInput(CreateWebhookDto, input)),
      'webhooks.list': async ({ principal, query }) => {
        const { limit, cursor } = await validateInput(PageQueryDto, query, 'query');
        return this.manage.list(assertApiKey(principal), limit ?? DEFAULT_PAGE_SIZE, cursor);
      },
      'webhooks.get': ({ principal, id }) => this.manage.get(assertApiKey(principal), requireUuid(id)),
      'webhooks.update': async ({ principal, id, input }) =>
        this.manage.update(assertApiKey(principal), requireUuid(id), await validateInput(UpdateWebhookDto, input)),
      'webhooks.delete': ({ principal, id }) => this.manage.delete(assertApiKey(principal), requireUuid(id)),
      'webhooks.pause': ({ principal, id }) => this.manage.pause(assertApiKey(principal), requireUuid(id)),
      'webhooks.resume': ({ principal, id }) => this.manage.resume(assertApiKey(principal), requireUuid(id)),
      'webhooks.rotate': ({ principal, id }) => this.manage.rotate(assertApiKey(principal), requireUuid(id)),
      'webhooks.test': ({ principal, id }) => this.testEndpoint.execute(assertApiKey(principal), requireUuid(id)),
    };
  }
}
