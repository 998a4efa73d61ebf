import { Injectable } from '@nestjs/common';
import { type HandlersOf, requireUuid } from '#libs/contracts';
import { InboundSmsUseCase } from './inbound/inbound-sms.usecase.js';
import { ListOutboxUseCase } from './passes/list-outbox.usecase.js';
import { ManualPassUseCase } from './passes/manual-pass.usecase.js';

/** The reminders.* subjects: passes and the sandbox outbox for the edges, inbound replies from the SMS webhook. */
@Injectable()
export class RemindersHandlers {
  constructor(
    private readonly manualPass: ManualPassUseCase,
    private readonly listOutbox: ListOutboxUseCase,
    private readonly inbound: InboundSmsUseCase,
  ) {}

  handlers(): HandlersOf<'reminders'> {
    return {
      'reminders.passes.run': ({ principal, signupId }) => this.manualPass.execute(principal, requireUuid(signupId)),
      'reminders.outbox.list': async ({ principal, signupId }) => ({
        data: await this.listOutbox.execute(principal, requireUuid(signupId)),
      }),
      'reminders.inbound': (sms) => this.inbound.execute(sms),
    };
  }
}
