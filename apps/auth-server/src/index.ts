import type { AppDefinition } from '#libs/runtime';
import { authConfigSpec } from './auth.config.js';
import { AuthHandlers } from './auth.handlers.js';
import { AuthServerModule } from './auth-server.module.js';
import { authDataSourceSpec } from './database.js';
import { AuthOutbox } from './shared/auth-outbox.js';
import { BusSubscriptions } from './shared/bus-subscriptions.js';

export { authDataSourceSpec } from './database.js';

/** Accounts, organizations and API keys: the admin API, and the auth.* bus subjects. */
export const authServerApp: AppDefinition = {
  name: 'auth-server',
  config: authConfigSpec,
  database: authDataSourceSpec,
  module: (context) => AuthServerModule.forApp(context),
  async start(app, context) {
    app.get(AuthOutbox).start();
    app.get(BusSubscriptions).add(await context.bus.serve('auth', app.get(AuthHandlers).handlers()));
  },
};
