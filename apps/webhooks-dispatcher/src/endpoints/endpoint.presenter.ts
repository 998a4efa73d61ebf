import type { WebhookEndpointView } from '#libs/contracts';
import type { Endpoint } from './endpoint.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** An endpoint as the API shows it: never a secret. */
export function endpointView(endpoint: Endpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes,
    paused: endpoint.paused,
    pausedReason: endpoint.pausedReason,
    pausedAt: iso(endpoint.pausedAt),
    consecutiveFailures: endpoint.consecutiveFailures,
    lastSuccessAt: iso(endpoint.lastSuccessAt),
    lastFailureAt: iso(endpoint.lastFailureAt),
    livemode: endpoint.livemode,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}
