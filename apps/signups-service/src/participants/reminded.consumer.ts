import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type CloudEvent, type DurableEventType, DURABLES } from '#libs/contracts';
import { APP_CONTEXT, type AppContext, EventConsumer } from '#libs/runtime';
import { ParticipantsRepository } from './participants.repository.js';

/** Keeps each participant's remindedAt from the reminders-service's reminder.sent events (each applied once). */
@Injectable()
export class RemindedConsumer extends EventConsumer<DurableEventType<'signups-reminded'>> {
  constructor(
    private readonly participants: ParticipantsRepository,
    @Inject(APP_CONTEXT) context: AppContext,
  ) {
    super(context, { consumer: DURABLES['signups-reminded'].durable, types: DURABLES['signups-reminded'].types });
  }

  protected apply(manager: EntityManager, event: CloudEvent<DurableEventType<'signups-reminded'>>): Promise<void> {
    const { participantId, sentAt } = event.data;
    return this.participants.markReminded(manager, participantId, sentAt);
  }
}
