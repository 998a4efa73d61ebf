import { Injectable } from '@nestjs/common';
import { DASHBOARD_CLIENT_ID, type MembershipView, type MeView, type Principal } from '#libs/contracts';
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

  /**
   * GET /me: the credential's user, organization, scopes and kind; for an OAuth token, which acts
   * for a person, also their role there; and for the platform's own dashboard, all their
   * organizations (to switch between). Another app was approved for one organization only: it
   * does not learn of the others.
   */
  async me(principal: Principal): Promise<MeView> {
    const [user, org] = await Promise.all([this.users.findById(principal.userId), this.organizations.findById(principal.organizationId)]);
    if (!user || !org) throw new ProblemError('invalid_credentials', "The credential's user or organization no longer exists.");
    const view: MeView = {
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
    if (principal.kind !== 'oauth') return view;
    const organizations = await this.membershipsOf(user.id);
    const role = organizations.find((o) => o.id === org.id)?.role;
    if (!role) throw new ProblemError('invalid_credentials', 'The user is no longer a member of the organization.');
    return { ...view, role, ...(principal.clientId === DASHBOARD_CLIENT_ID && { organizations }) };
  }

  /** The user's organizations, oldest membership first, each with their role. */
  private async membershipsOf(userId: string): Promise<MembershipView[]> {
    const memberships = await this.users.memberships(userId);
    const organizations = await Promise.all(memberships.map((m) => this.organizations.findById(m.organizationId)));
    return memberships.flatMap((m, i) => {
      const org = organizations[i];
      return org ? [{ id: org.id, name: org.name, slug: org.slug, tier: org.tier, role: m.role }] : [];
    });
  }
}
