import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { OutboxRelay, type Bus } from '#libs/bus';
import type { Logger } from '#libs/observability';
import { BUS, DATA_SOURCE, LOGGER } from '#libs/runtime';
import { AUTH_SCHEMA } from '../database.js';

/** Publishes the auth schema's outbox rows to the bus; started once the app listens. */
@Injectable()
export class AuthOutbox implements OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(@Inject(DATA_SOURCE) dataSource: DataSource, @Inject(BUS) bus: Bus, @Inject(LOGGER) logger: Logger) {
    this.relay = new OutboxRelay({ dataSource, schema: AUTH_SCHEMA, bus, logger });
  }

  start(): void {
    this.relay.start();
  }

  /** Publish now rather than at the next poll (call after a commit that enqueued events). */
  kick(): void {
    this.relay.kick();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}
