import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from '#libs/bus';

/** Bus subscriptions opened at start, stopped when the app shuts down. */
@Injectable()
export class BusSubscriptions implements OnModuleDestroy {
  private readonly subscriptions: Subscription[] = [];

  add(subscription: Subscription): void {
    this.subscriptions.push(subscription);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((s) => s.stop()));
  }
}
