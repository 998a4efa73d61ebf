import { Module } from '@nestjs/common';
import { APP_CONFIG } from '#libs/runtime';
import type { RemindersConfig } from '../reminders.config.js';
import { AccountEmailsUseCase } from './account-emails.usecase.js';
import { EmailSender } from './email-sender.js';
import { emailTransportFor } from './email-transport.factory.js';
import { EMAIL_TRANSPORT } from './email-transport.js';
import { Emails } from './emails.js';
import { EmailsRepository } from './emails.repository.js';
import { ListEmailsUseCase } from './list-emails.usecase.js';

/** The email outbox: recording, sending over SMTP, suppressions, the listings of stored mail, and the auth-server's account messages. */
@Module({
  providers: [
    { provide: EMAIL_TRANSPORT, useFactory: (config: RemindersConfig) => emailTransportFor(config), inject: [APP_CONFIG] },
    EmailsRepository,
    Emails,
    EmailSender,
    ListEmailsUseCase,
    AccountEmailsUseCase,
  ],
  exports: [Emails, EmailSender, ListEmailsUseCase, AccountEmailsUseCase],
})
export class EmailModule {}
