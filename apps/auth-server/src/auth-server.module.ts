import { type DynamicModule, Module } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Logger } from '#libs/observability';
import { APP_CONTEXT, type AppContext, DATA_SOURCE, LOGGER } from '#libs/runtime';
import { AccountController } from './account/account.controller.js';
import { AccountService } from './account/account.service.js';
import { AccountEmails } from './account/account-emails.js';
import { AccountSessions } from './account/account-session.js';
import { AccountTokensRepository } from './account/account-tokens.repository.js';
import { LoginLimiter } from './account/login-limiter.js';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { ApiKeysAdminController } from './api-keys/api-keys.controller.js';
import { ApiKeysRepository } from './api-keys/api-keys.repository.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import type { AuthConfig } from './auth.config.js';
import { AuthHandlers } from './auth.handlers.js';
import { InteractionsController } from './interactions/interactions.controller.js';
import { MeService } from './me/me.service.js';
import { OAuthController } from './oauth/oauth.controller.js';
import { OAuthGrants } from './oauth/oauth-grants.js';
import { OAuthGrantsRepository } from './oauth/oauth-grants.repository.js';
import { loadOrCreateOAuthKeys } from './oauth/oauth-keys.js';
import { OAuthProvider } from './oauth/oauth-provider.js';
import { OAuthSessionsRepository } from './oauth/oauth-sessions.repository.js';
import { OrganizationsAdminController } from './organizations/organizations.controller.js';
import { OrganizationsRepository } from './organizations/organizations.repository.js';
import { OrganizationsService } from './organizations/organizations.service.js';
import { AssetsController } from './shared/assets.controller.js';
import { UsersAdminController } from './users/users.controller.js';
import { UsersRepository } from './users/users.repository.js';
import { UsersService } from './users/users.service.js';

@Module({})
export class AuthServerModule {
  static forApp(context: AppContext<AuthConfig>): DynamicModule {
    const { config } = context;
    return {
      module: AuthServerModule,
      controllers: [
        OrganizationsAdminController,
        UsersAdminController,
        ApiKeysAdminController,
        OAuthController,
        InteractionsController,
        AccountController,
        AssetsController,
      ],
      providers: [
        AdminTokenGuard,
        OrganizationsRepository,
        UsersRepository,
        ApiKeysRepository,
        OrganizationsService,
        UsersService,
        ApiKeysService,
        MeService,
        AuthHandlers,
        OAuthGrantsRepository,
        OAuthGrants,
        AccountService,
        AccountTokensRepository,
        OAuthSessionsRepository,
        AccountEmails,
        {
          provide: LoginLimiter,
          useFactory: (app: AppContext) => LoginLimiter.create(app.redisUrl, config.loginRateLimitPrefix, config.oauthRegistrationsPerHour),
          inject: [APP_CONTEXT],
        },
        {
          provide: AccountSessions,
          useFactory: async (dataSource: DataSource) => {
            const key = (await loadOrCreateOAuthKeys(dataSource)).cookieKeys[0];
            if (!key) throw new Error('The OAuth cookie keys are missing.');
            return new AccountSessions(key, new URL(config.authUrl).protocol === 'https:', dataSource);
          },
          inject: [DATA_SOURCE],
        },
        {
          provide: OAuthProvider,
          useFactory: (dataSource: DataSource, grants: OAuthGrants, limiter: LoginLimiter, logger: Logger, users: UsersRepository) =>
            OAuthProvider.create(config, dataSource, grants, limiter, logger, async (userId) =>
              (await users.memberships(userId)).map((m) => m.organizationId),
            ),
          inject: [DATA_SOURCE, OAuthGrants, LoginLimiter, LOGGER, UsersRepository],
        },
      ],
    };
  }
}
