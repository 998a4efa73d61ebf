import { Module } from '@nestjs/common';
import type { AppDefinition } from '#libs/runtime';
import { InitReminders1795314237764 } from './migrations/1795314237764-InitReminders.js';

@Module({})
class RemindersModule {}

/** The reminders-service: runs SMS reminder passes; the contacts projection and passes come with their issue. */
export const remindersServiceApp: AppDefinition = {
  name: 'reminders-service',
  database: { schema: 'reminders', entities: [], migrations: [InitReminders1795314237764] },
  module: () => ({ module: RemindersModule }),
};
