import { Module } from '@nestjs/common';
import { DeliveriesModule } from './deliveries/deliveries.module.js';
import { EndpointsModule } from './endpoints/endpoints.module.js';

@Module({ imports: [EndpointsModule, DeliveriesModule] })
export class WebhooksModule {}
