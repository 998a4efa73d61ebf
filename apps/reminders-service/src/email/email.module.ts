import { Module } from '@nestjs/common';
import { APP_CONFIG } from '#libs/runtime';
import { ContactsModule } from '../contacts/contacts.module.js';
import type { RemindersConfig } from '../reminders.config.js';
import { AccountEmailsUseCase } from './account-emails.usecase.js';
import { EmailRemindersRepository } from './email-reminders.repository.js';
import { EmailSender } from './email-sender.js';
import { emailTransportFor } from './email-transport.factory.js';
import { EMAIL_TRANSPORT } from './email-transport.js';
import { Emails } from './emails.js';
import { EmailsRepository } from './emails.repository.js';
import { ListEmailsUseCase } from './list-emails.usecase.js';
import { MailStateRepository } from './mail-state.repository.js';
import { OrganizationProfiles } from './organization-profiles.js';
import { ParticipantMail } from './participant-mail.js';

/** The email outbox: recording, sending over SMTP, suppressions, the listings of stored mail, the auth-server's account messages, and the participant emails of each event. */
@Module({
  imports: [ContactsModule],
  providers: [
    { provide: EMAIL_TRANSPORT, useFactory: (config: RemindersConfig) => emailTransportFor(config), inject: [APP_CONFIG] },
    EmailsRepository,
    EmailRemindersRepository,
    Emails,
    EmailSender,
    ListEmailsUseCase,
    AccountEmailsUseCase,
    MailStateRepository,
    OrganizationProfiles,
    ParticipantMail,
  ],
  exports: [Emails, EmailSender, ListEmailsUseCase, AccountEmailsUseCase, ParticipantMail, EmailRemindersRepository, OrganizationProfiles],
})
export class EmailModule {}
