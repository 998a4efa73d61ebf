import { Module } from '@nestjs/common';
import { EndpointsModule } from '../endpoints/endpoints.module.js';
import { EventsModule } from '../events/events.module.js';
import { DeliveriesHandlers } from './deliveries.handlers.js';
import { DeliveriesRepository } from './deliveries.repository.js';
import { DeliveryWorker } from './delivery-worker.js';
import { FanOut } from './fan-out.js';

/** Deliveries: events recorded in the log and fanned out to matching endpoints, sent and retried by workers, their history and replays. */
@Module({
  imports: [EndpointsModule, EventsModule],
  providers: [DeliveriesRepository, DeliveryWorker, FanOut, DeliveriesHandlers],
  exports: [DeliveriesHandlers, DeliveryWorker, FanOut],
})
export class DeliveriesModule {}
