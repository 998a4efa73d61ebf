import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { serving, type AppDefinition } from '#libs/runtime';
import { authConfigSpec, loadAuthConfig } from './auth.config.js';
import { AuthHandlers } from './auth.handlers.js';
import { AuthServerModule } from './auth-server.module.js';
import { authDataSourceSpec } from './database.js';
import { leaveOAuthBodiesUnread } from './oauth/oauth-body.js';

export { authDataSourceSpec } from './database.js';

/** Accounts, organizations and API keys: the admin API, the auth.* bus subjects, and OAuth. */
export const authServerApp: AppDefinition = {
  name: 'auth-server',
  config: authConfigSpec,
  database: authDataSourceSpec,
  module: (context) => AuthServerModule.forApp(context),
  fastify: (context) => ({ trustProxy: loadAuthConfig(context.env).trustProxy }),
  configure(app) {
    leaveOAuthBodiesUnread((app as NestFastifyApplication).getHttpAdapter().getInstance());
  },
  serve: serving('auth', (app) => app.get(AuthHandlers).handlers()),
};
