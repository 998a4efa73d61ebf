import { Injectable } from '@nestjs/common';
import { newId, type CreateWebhookInput, type Principal, type WebhookWithSecretView } from '#libs/contracts';
import { upgradeRequired } from '#libs/problem';
import { generateSigningSecret } from '../../signing/index.js';
import { endpointView } from '../endpoint.presenter.js';
import { EndpointRules, normalizeEventTypes } from '../endpoint-rules.js';
import { EndpointsRepository } from '../endpoints.repository.js';

/** Registers an endpoint within the tier's cap and hands out its signing secret, once. */
@Injectable()
export class CreateEndpointUseCase {
  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly rules: EndpointRules,
  ) {}

  async execute(principal: Principal, input: CreateWebhookInput): Promise<WebhookWithSecretView> {
    const url = await this.rules.acceptUrl(principal, input.url);
    const signingSecret = generateSigningSecret();
    const result = await this.endpoints.insertWithinCap(
      {
        id: newId(),
        organizationId: principal.organizationId,
        livemode: principal.livemode,
        url,
        description: input.description ?? '',
        eventTypes: normalizeEventTypes(input.eventTypes),
        sealedSecret: this.rules.seal(signingSecret),
      },
      this.rules.webhookEndpointsAllowed(principal.tier),
    );
    if ('used' in result) {
      throw upgradeRequired({
        kind: 'limit',
        featureLabel: 'Webhook endpoints',
        currentTier: principal.tier,
        allowance: (tier) => this.rules.webhookEndpointsAllowed(tier),
        used: result.used,
      });
    }
    return { endpoint: endpointView(result.created), signingSecret };
  }
}
