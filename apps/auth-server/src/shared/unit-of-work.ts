import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { enqueueEvent } from '#libs/bus';
import { cloudEvent, type EventMap, type EventType } from '#libs/contracts';
import { DATA_SOURCE } from '#libs/runtime';
import { AUTH_SCHEMA } from '../database.js';
import { AuthOutbox } from './auth-outbox.js';

const EVENT_SOURCE = 'auth-server';

/** One database transaction; events emitted in it are committed with it (outbox). */
export interface Tx {
  readonly manager: EntityManager;
  emit<T extends EventType>(type: T, data: EventMap[T], meta: { orgid: string; livemode: boolean }): Promise<void>;
}

@Injectable()
export class UnitOfWork {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    private readonly outbox: AuthOutbox,
  ) {}

  /** Runs work in a transaction and, once it commits, has the relay publish its events. */
  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let emitted = false;
    const result = await this.dataSource.transaction((manager) =>
      work({
        manager,
        emit: async (type, data, meta) => {
          await enqueueEvent(manager, AUTH_SCHEMA, cloudEvent(EVENT_SOURCE, type, data, meta));
          emitted = true;
        },
      }),
    );
    if (emitted) this.outbox.kick();
    return result;
  }
}
