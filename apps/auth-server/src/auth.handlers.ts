import { Injectable } from '@nestjs/common';
import type { HandlersOf } from '#libs/contracts';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { MeService } from './me/me.service.js';
import { OrganizationsService } from './organizations/organizations.service.js';

/** The bus subjects owned by "auth": thin mappings onto the use cases. */
@Injectable()
export class AuthHandlers {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly organizations: OrganizationsService,
    private readonly meService: MeService,
  ) {}

  handlers(): HandlersOf<'auth'> {
    return {
      'auth.apikeys.verify': ({ keyHash }) => this.apiKeys.verify(keyHash),
      'auth.me': ({ principal }) => this.meService.me(principal),
      'auth.orgs.get': ({ principal, id }) => this.organizations.getForPrincipal(principal, id),
    };
  }
}
