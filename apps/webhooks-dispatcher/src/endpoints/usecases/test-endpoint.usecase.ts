import { Injectable } from '@nestjs/common';
import { newPrefixedId, type Principal, type WebhookTestView } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { webhookHeaders } from '../../signing/index.js';
import { errorMessageOf, isSuccess, postWebhook } from '../../targets/index.js';
import { ownerOf } from '../endpoint.js';
import { EndpointRules } from '../endpoint-rules.js';
import { EndpointsRepository } from '../endpoints.repository.js';

/**
 * Sends one signed webhook.test to the endpoint now and reports what came back. It is not a
 * delivery: it is not recorded and never counts toward pausing, and it is sent even while the
 * endpoint is paused (to check a fix before resuming).
 */
@Injectable()
export class TestEndpointUseCase {
  constructor(
    private readonly endpoints: EndpointsRepository,
    private readonly rules: EndpointRules,
  ) {}

  async execute(principal: Principal, id: string): Promise<WebhookTestView> {
    const endpoint = await this.endpoints.find(ownerOf(principal), id);
    if (!endpoint) throw new ProblemError('not_found', 'No webhook endpoint with this id.');
    const now = new Date();
    const messageId = newPrefixedId('msg');
    const timestamp = Math.floor(now.getTime() / 1000);
    const body = JSON.stringify({
      type: 'webhook.test',
      timestamp: now.toISOString(),
      data: { endpointId: endpoint.id, organizationId: endpoint.organizationId, livemode: endpoint.livemode },
    });
    const headers = webhookHeaders(this.rules.signingSecrets(endpoint, now), messageId, timestamp, body);
    const result = await postWebhook(new URL(endpoint.url), { ...headers }, body, {
      timeoutMs: this.rules.timeoutMs,
      allowPrivate: this.rules.allowPrivateUrls,
      ownConnection: true,
    });
    return {
      delivered: isSuccess(result),
      responseStatus: result.status,
      responseBody: result.body,
      errorMessage: errorMessageOf(result),
      latencyMs: Math.round(result.latencyMs),
    };
  }
}
