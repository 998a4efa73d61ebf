import { Injectable } from '@nestjs/common';
import type { MeView, Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { modeOf } from '../api-keys/api-key.view.js';
import { toOrganizationSummary } from '../organizations/organization.view.js';
import { OrganizationsRepository } from '../organizations/organizations.repository.js';
import { UsersRepository } from '../users/users.repository.js';

@Injectable()
export class MeService {
  constructor(
    private readonly users: UsersRepository,
    private readonly organizations: OrganizationsRepository,
  ) {}

  /** GET /me: the credential's user, organization, scopes and kind. */
  async me(principal: Principal): Promise<MeView> {
    const [user, org] = await Promise.all([this.users.findById(principal.userId), this.organizations.findById(principal.organizationId)]);
    if (!user || !org) throw new ProblemError('invalid_credentials', "The credential's user or organization no longer exists.");
    return {
      id: user.id,
      email: user.email,
      organization: toOrganizationSummary(org),
      scopes: principal.scopes,
      credential: {
        type: principal.kind,
        mode: modeOf(principal.livemode),
        ...(principal.clientId !== undefined && { clientId: principal.clientId }),
      },
    };
  }
}
