import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { type CreateWebhookInput, newId, type Principal, type WebhookWithSecretView } from '#libs/contracts';
import { upgradeRequired } from '#libs/problem';
import { DATA_SOURCE } from '#libs/runtime';
import { generateSigningSecret } from '../../signing/index.js';
import { endpointView } from '../endpoint.presenter.js';
import { EndpointRules, normalizeEventTypes } from '../endpoint-rules.js';
import { EndpointsRepository } from '../endpoints.repository.js';

/**
 * Registers an endpoint within the tier's cap and hands out its signing secret, once. The cap
 * counts the organization's endpoints of both modes, in the transaction that inserts: concurrent
 * creations of one organization queue on its count (lockAndCount), so the cap holds exactly.
 */
@Injectable()
export class CreateEndpointUseCase {
  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly rules: EndpointRules,
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
  ) {}

  async execute(principal: Principal, input: CreateWebhookInput): Promise<WebhookWithSecretView> {
    const url = await this.rules.acceptUrl(principal, input.url);
    const signingSecret = generateSigningSecret();
    const endpoint = {
      id: newId(),
      organizationId: principal.organizationId,
      livemode: principal.livemode,
      url,
      description: input.description ?? '',
      eventTypes: normalizeEventTypes(input.eventTypes),
      sealedSecret: this.rules.seal(signingSecret),
    };
    const created = await this.dataSource.transaction(async (manager) => {
      const used = await this.endpoints.lockAndCount(manager, principal.organizationId);
      if (used >= this.rules.webhookEndpointsAllowed(principal.tier)) {
        throw upgradeRequired({
          kind: 'limit',
          featureLabel: 'Webhook endpoints',
          currentTier: principal.tier,
          allowance: (tier) => this.rules.webhookEndpointsAllowed(tier),
          used,
        });
      }
      return this.endpoints.insert(manager, endpoint);
    });
    return { endpoint: endpointView(created), signingSecret };
  }
}
