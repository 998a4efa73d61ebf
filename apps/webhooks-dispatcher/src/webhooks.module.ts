import { Module } from '@nestjs/common';
import { DeliveriesModule } from './deliveries/deliveries.module.js';
import { EndpointsModule } from './endpoints/endpoints.module.js';
import { EventsModule } from './events/events.module.js';

@Module({ imports: [EndpointsModule, EventsModule, DeliveriesModule] })
export class WebhooksModule {}
