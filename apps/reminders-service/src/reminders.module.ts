import { Module } from '@nestjs/common';
import { APP_CONFIG, APP_CONTEXT, type AppContext } from '#libs/runtime';
import { ContactsModule } from './contacts/contacts.module.js';
import { EmailModule } from './email/email.module.js';
import { InboundSmsUseCase } from './inbound/inbound-sms.usecase.js';
import { OptOutsRepository } from './inbound/opt-outs.repository.js';
import { AutomaticPasses } from './passes/automatic-passes.js';
import { EmailReminderPass } from './passes/email-reminder-pass.js';
import { ListOutboxUseCase } from './passes/list-outbox.usecase.js';
import { ManualPassUseCase } from './passes/manual-pass.usecase.js';
import { PassesRepository } from './passes/passes.repository.js';
import { ReminderPass } from './passes/reminder-pass.js';
import { ReminderPasses } from './passes/reminder-passes.js';
import { ReminderStatusUseCase } from './passes/reminder-status.usecase.js';
import type { RemindersConfig } from './reminders.config.js';
import { RemindersHandlers } from './reminders.handlers.js';
import { smsProviderFor } from './sms/sms-provider.factory.js';
import { SMS_PROVIDER } from './sms/sms-provider.js';

/** Reminder passes (manual and automatic), the SMS provider, opt-outs and the sandbox outbox, on the contacts projection; and email. */
@Module({
  imports: [ContactsModule, EmailModule],
  providers: [
    {
      provide: SMS_PROVIDER,
      useFactory: (config: RemindersConfig, context: AppContext) => smsProviderFor(config, context.logger),
      inject: [APP_CONFIG, APP_CONTEXT],
    },
    PassesRepository,
    OptOutsRepository,
    ReminderPass,
    EmailReminderPass,
    ReminderPasses,
    ManualPassUseCase,
    ListOutboxUseCase,
    ReminderStatusUseCase,
    InboundSmsUseCase,
    AutomaticPasses,
    RemindersHandlers,
  ],
  exports: [RemindersHandlers, AutomaticPasses, EmailModule],
})
export class RemindersModule {}
