import type { DataSourceSpec } from '#libs/persistence';
import { type AppDefinition, hoursToSeconds, serving } from '#libs/runtime';
import { ContactsProjection } from './contacts/contacts-projection.js';
import { EmailSender } from './email/email-sender.js';
import { ParticipantMail } from './email/participant-mail.js';
import { InitReminders1795314237764 } from './migrations/1795314237764-InitReminders.js';
import { AddContactsProjection1795800000000 } from './migrations/1795800000000-AddContactsProjection.js';
import { AddReminderPasses1795900000000 } from './migrations/1795900000000-AddReminderPasses.js';
import { ClaimedReminders1795900000001 } from './migrations/1795900000001-ClaimedReminders.js';
import { OutboxTraceContext1796000000000 } from './migrations/1796000000000-OutboxTraceContext.js';
import { Retention1796450000000 } from './migrations/1796450000000-Retention.js';
import { ContactStatus1796600000000 } from './migrations/1796600000000-ContactStatus.js';
import { SignupTimeZone1796700000010 } from './migrations/1796700000010-SignupTimeZone.js';
import { Emails1796710000000 } from './migrations/1796710000000-Emails.js';
import { ContactEmail1796720000000 } from './migrations/1796720000000-ContactEmail.js';
import { MailState1796730000000 } from './migrations/1796730000000-MailState.js';
import { DailyEmail1796740000000 } from './migrations/1796740000000-DailyEmail.js';
import { ReminderHoursBefore1796760000000 } from './migrations/1796760000000-ReminderHoursBefore.js';
import { EmailReminders1796770000000 } from './migrations/1796770000000-EmailReminders.js';
import { MailStateSignup1796780000000 } from './migrations/1796780000000-MailStateSignup.js';
import { MailStateAsOf1796790000000 } from './migrations/1796790000000-MailStateAsOf.js';
import { EmailsRecipientIndex1796800000000 } from './migrations/1796800000000-EmailsRecipientIndex.js';
import { AutomaticPasses } from './passes/automatic-passes.js';
import { remindersSpec } from './reminders.config.js';
import { RemindersHandlers } from './reminders.handlers.js';
import { RemindersModule } from './reminders.module.js';
import { REMINDERS_SCHEMA } from './schema.js';

export const remindersDataSourceSpec: DataSourceSpec = {
  schema: REMINDERS_SCHEMA,
  entities: [],
  migrations: [
    InitReminders1795314237764,
    AddContactsProjection1795800000000,
    AddReminderPasses1795900000000,
    ClaimedReminders1795900000001,
    OutboxTraceContext1796000000000,
    Retention1796450000000,
    ContactStatus1796600000000,
    SignupTimeZone1796700000010,
    Emails1796710000000,
    ContactEmail1796720000000,
    MailState1796730000000,
    DailyEmail1796740000000,
    ReminderHoursBefore1796760000000,
    EmailReminders1796770000000,
    MailStateSignup1796780000000,
    MailStateAsOf1796790000000,
    EmailsRecipientIndex1796800000000,
  ],
};

/**
 * The reminders-service: keeps the contacts projection from signup and participant events, runs
 * reminder passes by text and email (reminders.* on the bus, and automatically the signup's
 * reminderHoursBefore before each event), records opt-outs, and emits reminder.sent; records
 * emails in its outbox and sends them over SMTP.
 */
export const remindersServiceApp: AppDefinition<typeof remindersSpec> = {
  name: 'reminders-service',
  config: remindersSpec,
  database: remindersDataSourceSpec,
  module: () => ({ module: RemindersModule }),
  // Live texts stay: they are what keeps a person from a second reminder.
  retention: ({ config }) => [
    {
      table: 'messages',
      key: ['id'],
      after: 'sent_at',
      only: `NOT "livemode" AND "status" = 'sent'`,
      retentionSeconds: hoursToSeconds(config.sandboxMessagesRetentionHours),
    },
    { table: 'emails', key: ['id'], after: 'created_at', retentionSeconds: hoursToSeconds(config.emailsRetentionHours) },
  ],
  serve: serving('reminders', (app) => app.get(RemindersHandlers).handlers()),
  async start(app) {
    await app.get(ContactsProjection).start();
    await app.get(ParticipantMail).start();
    app.get(AutomaticPasses).start();
    app.get(EmailSender).start();
  },
};
