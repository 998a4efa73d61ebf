import { Module, type OnApplicationShutdown } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { OutboxRelay, type Bus } from '#libs/bus';
import type { Logger } from '#libs/observability';
import { BUS, DATA_SOURCE, LOGGER } from '#libs/runtime';
import { SIGNUPS_SCHEMA } from '../schema.js';

/** The relay that publishes the signups schema's outbox; started by the app, stopped on shutdown. */
@Module({
  providers: [
    {
      provide: OutboxRelay,
      useFactory: (dataSource: DataSource, bus: Bus, logger: Logger) => new OutboxRelay({ dataSource, schema: SIGNUPS_SCHEMA, bus, logger }),
      inject: [DATA_SOURCE, BUS, LOGGER],
    },
  ],
  exports: [OutboxRelay],
})
export class OutboxModule implements OnApplicationShutdown {
  constructor(private readonly relay: OutboxRelay) {}

  onApplicationShutdown(): Promise<void> {
    return this.relay.stop();
  }
}
