import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Bus, Subscription } from '#libs/bus';
import { SignupsHandlers } from './signups/signups.handlers.js';

/** Serves every signups.* subject while the app runs; stops taking requests first on shutdown. */
@Injectable()
export class BusServer implements OnModuleDestroy {
  private subscription?: Subscription;

  constructor(private readonly signups: SignupsHandlers) {}

  async serve(bus: Bus): Promise<void> {
    this.subscription = await bus.serve('signups', this.signups.handlers());
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }
}
