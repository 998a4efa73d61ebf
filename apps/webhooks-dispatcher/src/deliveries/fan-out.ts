import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Subscription } from '#libs/bus';
import { EVENT_TYPES, WEBHOOK_EVENT_TYPES, type CloudEvent, type EventType } from '#libs/contracts';
import { APP_CONTEXT, consumeOnceFor, type AppContext } from '#libs/runtime';
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
 */
@Injectable()
export class FanOut implements OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
    @Inject(APP_CONTEXT) private readonly context: AppContext,
  ) {}

  async start(): Promise<void> {
    this.subscription = await consumeOnceFor(
      this.context,
      { consumer: 'webhooks-fan-out', types: DELIVERABLE, afterCommit: () => this.worker.kick() },
      async (manager, event) => {
        await this.deliveries.fanOut(manager, event, webhookPayload(event));
      },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }
}
