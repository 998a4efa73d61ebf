import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type AppDefinition, hoursToSeconds, serving } from '#libs/runtime';
import { authConfigSpec } from './auth.config.js';
import { AuthHandlers } from './auth.handlers.js';
import { AuthServerModule } from './auth-server.module.js';
import { authDataSourceSpec } from './database.js';
import { leaveOAuthBodiesUnread } from './oauth/oauth-body.js';

export { authDataSourceSpec } from './database.js';

/** Accounts, organizations and API keys: the admin API, the auth.* bus subjects, and OAuth. */
export const authServerApp: AppDefinition<typeof authConfigSpec> = {
  name: 'auth-server',
  config: authConfigSpec,
  database: authDataSourceSpec,
  module: (context) => AuthServerModule.forApp(context),
  fastify: ({ config }) => ({ trustProxy: config.trustProxy }),
  configure(app) {
    leaveOAuthBodiesUnread((app as NestFastifyApplication).getHttpAdapter().getInstance());
  },
  // Only expired rows go (a row without an expiry, such as a client in use, never does).
  retention: ({ config }) => [
    { table: 'oauth_store', key: ['model', 'id'], after: 'expires_at', retentionSeconds: hoursToSeconds(config.oauthRetentionHours) },
    {
      table: 'oauth_grant_organizations',
      key: ['grant_id'],
      after: 'expires_at',
      retentionSeconds: hoursToSeconds(config.oauthRetentionHours),
    },
    { table: 'oauth_revoked_grants', key: ['grant_id'], after: 'expires_at', retentionSeconds: hoursToSeconds(config.oauthRetentionHours) },
    {
      table: 'oauth_device_polls',
      key: ['device_code_hash'],
      after: 'expires_at',
      retentionSeconds: hoursToSeconds(config.oauthRetentionHours),
    },
    { table: 'account_sessions', key: ['id'], after: 'expires_at', retentionSeconds: hoursToSeconds(config.accountSessionsRetentionHours) },
    { table: 'account_tokens', key: ['id'], after: 'expires_at', retentionSeconds: hoursToSeconds(config.accountSessionsRetentionHours) },
  ],
  serve: serving('auth', (app) => app.get(AuthHandlers).handlers()),
};
