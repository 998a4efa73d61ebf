import { Inject, Injectable } from '@nestjs/common';
import type { HandlersOf } from '#libs/contracts';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { MeService } from './me/me.service.js';
import { OAuthGrants } from './oauth/oauth-grants.js';
import { OAuthProvider } from './oauth/oauth-provider.js';
import { OrganizationsService } from './organizations/organizations.service.js';

/** The bus subjects owned by "auth": thin mappings onto the use cases. */
@Injectable()
export class AuthHandlers {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly organizations: OrganizationsService,
    private readonly meService: MeService,
    private readonly grants: OAuthGrants,
    @Inject(OAuthProvider) private readonly oauth: OAuthProvider,
  ) {}

  handlers(): HandlersOf<'auth'> {
    return {
      'auth.apikeys.verify': ({ keyHash }) => this.apiKeys.verify(keyHash),
      'auth.me': ({ principal }) => this.meService.me(principal),
      'auth.orgs.get': ({ principal, id }) => this.organizations.getForPrincipal(principal, id),
      'auth.orgs.tier': ({ organizationId }) => this.organizations.tierForToken(organizationId),
      'auth.orgs.profile': ({ organizationId }) => this.organizations.profileOf(organizationId),
      'auth.members.role': ({ organizationId, userId }) => this.organizations.roleForToken(organizationId, userId),
      'auth.oauth.jwks': async () => this.oauth.jwks,
      'auth.oauth.revocations': async () => ({ grantIds: await this.grants.revokedGrantIds() }),
    };
  }
}
