import type { DataSourceSpec } from '#libs/persistence';
import { serving, type AppDefinition } from '#libs/runtime';
import { CreateSignups1795314296671 } from './migrations/1795314296671-CreateSignups.js';
import { SIGNUPS_SCHEMA } from './schema.js';
import { SignupsServiceModule } from './signups-service.module.js';
import { SignupsHandlers } from './signups/signups.handlers.js';

export const signupsDataSourceSpec: DataSourceSpec = {
  schema: SIGNUPS_SCHEMA,
  entities: [],
  migrations: [CreateSignups1795314296671],
};

/** The signup domain: serves signups.* on the bus and publishes signup.* events through its outbox. */
export const signupsServiceApp: AppDefinition = {
  name: 'signups-service',
  database: signupsDataSourceSpec,
  module: () => ({ module: SignupsServiceModule }),
  serve: serving('signups', (app) => app.get(SignupsHandlers).handlers()),
};
