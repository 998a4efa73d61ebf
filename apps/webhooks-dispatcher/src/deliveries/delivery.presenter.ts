import type { DeliveryView } from '#libs/contracts';
import type { Delivery } from './delivery.js';

export function deliveryView(delivery: Delivery): DeliveryView {
  return {
    id: delivery.id,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    lastResponseStatus: delivery.lastResponseStatus,
    errorMessage: delivery.errorMessage,
    createdAt: delivery.createdAt.toISOString(),
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  };
}
