import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { EVENT_TYPES, WEBHOOK_EVENT_TYPES, type CloudEvent, type EventType } from '#libs/contracts';
import { APP_CONTEXT, EventConsumer, type AppContext } from '#libs/runtime';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryWorker } from './delivery-worker.js';

const DELIVERABLE: readonly EventType[] = EVENT_TYPES.filter((type) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));

/** The Standard Webhooks body of an event: its type, time and data, with the organization and mode. */
export function webhookPayload(event: CloudEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.time,
    data: { ...(event.data as object), organizationId: event.orgid, livemode: event.livemode },
  });
}

/**
 * The durable consumer of the events endpoints can receive (shared by every replica): each
 * event id is applied once, as one delivery row per matching endpoint, in one transaction.
 * The worker is woken once that transaction commits, and only when it created a pending
 * delivery: most events match no endpoint, and a wake-up costs a claim query.
 */
@Injectable()
export class FanOut extends EventConsumer {
  /**
   * Events whose transaction created pending deliveries and has yet to commit. Kept by event, so
   * one event's commit never takes another's wake-up; an event whose transaction rolls back is
   * applied again when redelivered.
   */
  private readonly withWork = new Set<string>();

  constructor(
    private readonly deliveries: DeliveriesRepository,
    worker: DeliveryWorker,
    @Inject(APP_CONTEXT) context: AppContext,
  ) {
    super(context, {
      consumer: 'webhooks-fan-out',
      types: DELIVERABLE,
      afterCommit: (event) => {
        if (this.withWork.delete(event.id)) worker.kick();
      },
    });
  }

  protected async apply(manager: EntityManager, event: CloudEvent): Promise<void> {
    const pending = await this.deliveries.fanOut(manager, event, webhookPayload(event));
    if (pending > 0) this.withWork.add(event.id);
  }
}
