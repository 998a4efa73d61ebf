import { Inject, Injectable } from '@nestjs/common';
import type { Bus } from '#libs/bus';
import type { OutboxMessageView, Principal } from '#libs/contracts';
import { BUS } from '#libs/runtime';
import { PassesRepository } from './passes.repository.js';

/** The texts sandbox passes stored for a signup the principal owns, oldest first (a live signup has none). */
@Injectable()
export class ListOutboxUseCase {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly passes: PassesRepository,
  ) {}

  async execute(principal: Principal, signupId: string): Promise<OutboxMessageView[]> {
    const signup = await this.bus.request('signups.reminders.target', { principal, signupId });
    const messages = await this.passes.outbox(signup.id);
    return messages.map((m) => ({
      id: m.id,
      signupId: m.signupId,
      participantId: m.participantId,
      to: m.phone,
      body: m.body,
      trigger: m.trigger,
      createdAt: m.sentAt.toISOString(),
    }));
  }
}
