import { Injectable } from '@nestjs/common';
import { AccountEmailInput, type HandlersOf, requireUuid, SendRemindersDto, validateInput } from '#libs/contracts';
import { AccountEmailsUseCase } from './email/account-emails.usecase.js';
import { ListEmailsUseCase } from './email/list-emails.usecase.js';
import { InboundSmsUseCase } from './inbound/inbound-sms.usecase.js';
import { ListOutboxUseCase } from './passes/list-outbox.usecase.js';
import { ManualPassUseCase } from './passes/manual-pass.usecase.js';
import { ReminderStatusUseCase } from './passes/reminder-status.usecase.js';

/** The reminders.* subjects: passes and a signup's reminder status, the sandbox outbox and emails for the edges, the mailbox, unsubscribes, inbound replies from the SMS webhook, the auth-server's account emails. */
@Injectable()
export class RemindersHandlers {
  constructor(
    private readonly manualPass: ManualPassUseCase,
    private readonly listOutbox: ListOutboxUseCase,
    private readonly status: ReminderStatusUseCase,
    private readonly inbound: InboundSmsUseCase,
    private readonly emails: ListEmailsUseCase,
    private readonly accountEmails: AccountEmailsUseCase,
  ) {}

  handlers(): HandlersOf<'reminders'> {
    return {
      'reminders.passes.run': async ({ principal, signupId, channel }) =>
        this.manualPass.execute(principal, requireUuid(signupId), (await validateInput(SendRemindersDto, { channel }, 'input')).channel),
      'reminders.outbox.list': async ({ principal, signupId }) => ({
        data: await this.listOutbox.execute(principal, requireUuid(signupId)),
      }),
      'reminders.status.get': ({ principal, signupId }) => this.status.execute(principal, requireUuid(signupId)),
      'reminders.inbound': (sms) => this.inbound.execute(sms),
      'reminders.emails.list': async ({ principal, signupId }) => ({
        data: await this.emails.ofSignup(principal, requireUuid(signupId)),
      }),
      'reminders.mailbox.list': async ({ limit }) => ({ data: await this.emails.mailbox(limit) }),
      'reminders.mailbox.get': ({ id }) => this.emails.mailboxMessage(requireUuid(id)),
      'reminders.unsubscribe': ({ token }) => this.emails.unsubscribe(token),
      'reminders.emails.account': async (input) => this.accountEmails.execute(await validateInput(AccountEmailInput, input, 'input')),
    };
  }
}
