import { Module } from '@nestjs/common';
import { APP_CONFIG } from '#libs/runtime';
import type { RemindersConfig } from '../reminders.config.js';
import { EmailSender } from './email-sender.js';
import { emailTransportFor } from './email-transport.factory.js';
import { EMAIL_TRANSPORT } from './email-transport.js';
import { Emails } from './emails.js';
import { EmailsRepository } from './emails.repository.js';
import { ListEmailsUseCase } from './list-emails.usecase.js';

/** The email outbox: recording, sending over SMTP, suppressions, and the listings of stored mail. */
@Module({
  providers: [
    { provide: EMAIL_TRANSPORT, useFactory: (config: RemindersConfig) => emailTransportFor(config), inject: [APP_CONFIG] },
    EmailsRepository,
    Emails,
    EmailSender,
    ListEmailsUseCase,
  ],
  exports: [Emails, EmailSender, ListEmailsUseCase],
})
export class EmailModule {}
