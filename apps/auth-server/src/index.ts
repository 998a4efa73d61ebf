import { serving, type AppDefinition } from '#libs/runtime';
import { authConfigSpec } from './auth.config.js';
import { AuthHandlers } from './auth.handlers.js';
import { AuthServerModule } from './auth-server.module.js';
import { authDataSourceSpec } from './database.js';

export { authDataSourceSpec } from './database.js';

/** Accounts, organizations and API keys: the admin API, and the auth.* bus subjects. */
export const authServerApp: AppDefinition = {
  name: 'auth-server',
  config: authConfigSpec,
  database: authDataSourceSpec,
  module: (context) => AuthServerModule.forApp(context),
  serve: serving('auth', (app) => app.get(AuthHandlers).handlers()),
};
