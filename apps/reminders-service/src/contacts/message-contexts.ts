import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import { MAX_MESSAGE_CONTEXTS, type ParticipantMessageContext } from '#libs/contracts';
import { BUS } from '#libs/runtime';

/**
 * What the emails to participants need, read from the signups-service when a message is made
 * (signups.participants.messages): the participant, its signup, what it holds and its links, as
 * they are now, so a message that goes out late still tells what is true.
 */
@Injectable()
export class MessageContexts {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  /** The contexts of these participants, by participant id, asked MAX_MESSAGE_CONTEXTS at a time; one that is gone is absent. */
  async of(participantIds: readonly string[]): Promise<Map<string, ParticipantMessageContext>> {
    const ids = [...new Set(participantIds)];
    const contexts = new Map<string, ParticipantMessageContext>();
    for (let start = 0; start < ids.length; start += MAX_MESSAGE_CONTEXTS) {
      const { data } = await this.bus.request('signups.participants.messages', {
        participantIds: ids.slice(start, start + MAX_MESSAGE_CONTEXTS),
      });
      for (const context of data) contexts.set(context.participant.id, context);
    }
    return contexts;
  }
}
