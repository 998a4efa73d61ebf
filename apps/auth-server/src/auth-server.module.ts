import { Module, type DynamicModule } from '@nestjs/common';
import { APP_CONTEXT, DATA_SOURCE, LOGGER, type AppContext } from '#libs/runtime';
import type { Logger } from '#libs/observability';
import type { DataSource } from 'typeorm';
import { AdminTokenGuard } from './admin/admin-token.guard.js';
import { ApiKeysAdminController } from './api-keys/api-keys.controller.js';
import { ApiKeysRepository } from './api-keys/api-keys.repository.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { AUTH_CONFIG, loadAuthConfig } from './auth.config.js';
import { AuthHandlers } from './auth.handlers.js';
import { InteractionsController } from './interactions/interactions.controller.js';
import { MeService } from './me/me.service.js';
import { OAuthProvider } from './oauth/oauth-provider.js';
import { OAuthController } from './oauth/oauth.controller.js';
import { OrganizationsAdminController } from './organizations/organizations.controller.js';
import { OrganizationsRepository } from './organizations/organizations.repository.js';
import { OrganizationsService } from './organizations/organizations.service.js';
import { UsersAdminController } from './users/users.controller.js';
import { UsersRepository } from './users/users.repository.js';
import { UsersService } from './users/users.service.js';

@Module({})
export class AuthServerModule {
  /** Reads the auth-server's configuration first, so a missing ADMIN_TOKEN stops the boot. */
  static forApp(context: AppContext): DynamicModule {
    const config = loadAuthConfig(context.env);
    return {
      module: AuthServerModule,
      controllers: [OrganizationsAdminController, UsersAdminController, ApiKeysAdminController, OAuthController, InteractionsController],
      providers: [
        { provide: AUTH_CONFIG, useValue: config },
        AdminTokenGuard,
        OrganizationsRepository,
        UsersRepository,
        ApiKeysRepository,
        OrganizationsService,
        UsersService,
        ApiKeysService,
        MeService,
        AuthHandlers,
        {
          provide: OAuthProvider,
          useFactory: (app: AppContext, dataSource: DataSource, logger: Logger) => OAuthProvider.create(app.env, dataSource, logger),
          inject: [APP_CONTEXT, DATA_SOURCE, LOGGER],
        },
      ],
    };
  }
}
