import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONTEXT, type AppContext } from '#libs/runtime';
import { IdempotencyStore } from './idempotency.store.js';

const PURGE_EVERY_MS = 10 * 60 * 1000;

/** Deletes expired idempotency records every ten minutes (each replica; the deletes do not conflict). */
@Injectable()
export class IdempotencyJanitor implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly store: IdempotencyStore,
    @Inject(APP_CONTEXT) private readonly context: AppContext,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async purge(): Promise<void> {
    try {
      const purged = await this.store.purgeExpired();
      if (purged > 0) this.context.logger.info({ purged }, 'expired idempotency records deleted');
    } catch (err) {
      this.context.logger.warn({ err }, 'could not delete expired idempotency records');
    }
  }
}
