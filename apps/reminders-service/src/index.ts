import type { DataSourceSpec } from '#libs/persistence';
import type { AppDefinition } from '#libs/runtime';
import { ContactsProjection } from './contacts/contacts-projection.js';
import { ContactsModule } from './contacts/contacts.module.js';
import { InitReminders1795314237764 } from './migrations/1795314237764-InitReminders.js';
import { AddContactsProjection1795800000000 } from './migrations/1795800000000-AddContactsProjection.js';
import { REMINDERS_SCHEMA } from './schema.js';

export const remindersDataSourceSpec: DataSourceSpec = {
  schema: REMINDERS_SCHEMA,
  entities: [],
  migrations: [InitReminders1795314237764, AddContactsProjection1795800000000],
};

/** The reminders-service: keeps the contacts projection from participant and signup events; SMS passes come with their issue. */
export const remindersServiceApp: AppDefinition = {
  name: 'reminders-service',
  database: remindersDataSourceSpec,
  module: () => ({ module: ContactsModule }),
  async start(app) {
    await app.get(ContactsProjection).start();
  },
};
