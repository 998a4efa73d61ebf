import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type CloudEvent, type DurableEventType, DURABLES } from '#libs/contracts';
import { APP_CONTEXT, type AppContext, EventConsumer } from '#libs/runtime';
import { EventsRepository } from '../events/events.repository.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryWorker } from './delivery-worker.js';

/** The Standard Webhooks body of an event: its type, time and data, with the organization and mode. */
export function webhookPayload(event: CloudEvent): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.time,
    data: { ...event.data, organizationId: event.orgid, livemode: event.livemode },
  });
}

/**
 * The durable consumer of the events endpoints can receive (shared by every replica): each
 * event id is applied once, as a row of the event log and one delivery row per matching
 * endpoint, in the transaction of its batch (consumeOnce). The worker is woken once that transaction commits, and only when it
 * created a pending delivery: most events match no endpoint, and a wake-up costs a claim query.
 */
@Injectable()
export class FanOut extends EventConsumer<DurableEventType<'webhooks-fan-out'>> {
  /**
   * Whether an event applied since the last wake-up created a pending delivery. One of a batch
   * that rolled back leaves it set, which costs at most one claim that finds nothing.
   */
  private pendingWork = false;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly log: EventsRepository,
    worker: DeliveryWorker,
    @Inject(APP_CONTEXT) context: AppContext,
  ) {
    super(context, {
      consumer: DURABLES['webhooks-fan-out'].durable,
      types: DURABLES['webhooks-fan-out'].types,
      afterCommit: () => {
        if (!this.pendingWork) return;
        this.pendingWork = false;
        worker.kick();
      },
    });
  }

  protected async apply(manager: EntityManager, event: CloudEvent<DurableEventType<'webhooks-fan-out'>>): Promise<void> {
    const payload = webhookPayload(event);
    await this.log.record(manager, event, payload);
    if ((await this.deliveries.fanOut(manager, event, payload)) > 0) this.pendingWork = true;
  }
}
