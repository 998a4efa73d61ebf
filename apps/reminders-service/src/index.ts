import { Module } from '@nestjs/common';
import type { DataSourceSpec } from '#libs/persistence';
import type { AppDefinition } from '#libs/runtime';
import { InitReminders1795314237764 } from './migrations/1795314237764-InitReminders.js';

export const remindersDataSourceSpec: DataSourceSpec = {
  schema: 'reminders',
  entities: [],
  migrations: [InitReminders1795314237764],
};

@Module({})
class RemindersModule {}

/** The reminders-service: sends SMS reminders (passes and the contacts projection come with their issue). */
export const remindersServiceApp: AppDefinition = {
  name: 'reminders-service',
  database: remindersDataSourceSpec,
  module: () => ({ module: RemindersModule }),
};
