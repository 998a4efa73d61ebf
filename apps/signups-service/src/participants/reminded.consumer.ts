import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Subscription } from '#libs/bus';
import type { EventMap } from '#libs/contracts';
import { APP_CONTEXT, consumeOnceFor, type AppContext } from '#libs/runtime';
import { ParticipantsRepository } from './participants.repository.js';

/** Keeps each participant's remindedAt from the reminders-service's reminder.sent events (each applied once). */
@Injectable()
export class RemindedConsumer implements OnApplicationShutdown {
  private subscription?: Subscription;

  constructor(
    private readonly participants: ParticipantsRepository,
    @Inject(APP_CONTEXT) private readonly context: AppContext,
  ) {}

  async start(): Promise<void> {
    this.subscription = await consumeOnceFor(this.context, { consumer: 'signups-reminded', types: ['reminder.sent'] }, (manager, event) => {
      const { participantId, sentAt } = event.data as EventMap['reminder.sent'];
      return this.participants.markReminded(manager, participantId, sentAt);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = undefined;
  }
}
