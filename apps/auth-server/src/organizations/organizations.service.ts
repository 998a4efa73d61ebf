import { Injectable } from '@nestjs/common';
import type { Tier } from '#libs/config';
import type { AdminCreateOrgDto, MemberRole, OrganizationView, Principal } from '#libs/contracts';
import { DEFAULT_TIME_ZONE, newPrefixedId, newSlug } from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import { Outbox } from '#libs/runtime';
import { UsersRepository } from '../users/users.repository.js';
import { noFreeSlug, organizationNotFound } from './organization.errors.js';
import type { OrganizationChanges } from './organization.js';
import { toOrganizationView } from './organization.view.js';
import { OrganizationsRepository } from './organizations.repository.js';

const SLUG_ATTEMPTS = 5;

@Injectable()
export class OrganizationsService {
  constructor(
    private readonly outbox: Outbox,
    private readonly organizations: OrganizationsRepository,
    private readonly users: UsersRepository,
  ) {}

  /** Creates an organization with a unique slug derived from its name. */
  async create(input: AdminCreateOrgDto): Promise<OrganizationView> {
    const now = new Date();
    for (let attempt = 1; attempt <= SLUG_ATTEMPTS; attempt++) {
      const org = await this.organizations.insert({
        id: newPrefixedId('org'),
        name: input.name,
        slug: newSlug(input.name, 'org'),
        tier: input.tier ?? 'free',
        timeZone: input.timeZone ?? DEFAULT_TIME_ZONE,
        createdAt: now,
        updatedAt: now,
      });
      if (org) return toOrganizationView(org);
    }
    throw noFreeSlug(input.name, SLUG_ATTEMPTS);
  }

  async get(id: string): Promise<OrganizationView> {
    const org = await this.organizations.findById(id);
    if (!org) throw organizationNotFound(id);
    return toOrganizationView(org);
  }

  /** The tier of the organization an access token names; a token for a deleted organization is not recognized. */
  async tierForToken(id: unknown): Promise<{ tier: Tier }> {
    const org = typeof id === 'string' ? await this.organizations.findById(id) : null;
    if (!org) throw new ProblemError('invalid_credentials', "The access token's organization no longer exists.");
    return { tier: org.tier };
  }

  /** An organization's name and tier (the sender name of its emails, and their ceiling); not_found when there is none. */
  async profileOf(id: unknown): Promise<{ name: string; tier: Tier }> {
    const org = typeof id === 'string' ? await this.organizations.findById(id) : null;
    if (!org) throw new ProblemError('not_found', 'No organization with this id.');
    return { name: org.name, tier: org.tier };
  }

  /** The user's role in the organization, for a resource server bounding a token's scopes; invalid_credentials once they are no member. */
  async roleForToken(organizationId: unknown, userId: unknown): Promise<{ role: MemberRole }> {
    const membership =
      typeof organizationId === 'string' && typeof userId === 'string' ? await this.users.findMembership(userId, organizationId) : null;
    if (!membership) throw new ProblemError('invalid_credentials', "The access token's user is no longer a member of its organization.");
    return { role: membership.role };
  }

  /** The caller's own organization; any other is not found (no existence leak). */
  async getForPrincipal(principal: Principal, id: string): Promise<OrganizationView> {
    if (id !== principal.organizationId) throw organizationNotFound(id);
    return this.get(id);
  }

  /**
   * Changes the tier or the time zone (the fields given); a change of tier emits
   * auth.organization.tier_changed, with the zone, in the same transaction. Changing nothing
   * writes nothing. A new zone applies to the signups created from then on: each signup keeps
   * the zone it was created with.
   */
  update(id: string, changes: OrganizationChanges): Promise<OrganizationView> {
    return this.outbox.transaction(async (tx) => {
      const previous = await this.organizations.lockById(tx.manager, id);
      if (!previous) throw organizationNotFound(id);
      const changed = (Object.keys(changes) as (keyof OrganizationChanges)[]).some(
        (field) => changes[field] !== undefined && changes[field] !== previous[field],
      );
      if (!changed) return toOrganizationView(previous);
      const org = await this.organizations.update(tx.manager, id, changes, new Date());
      if (org.tier !== previous.tier) {
        // A tier applies to both modes; the event is a live-mode fact.
        await tx.emit(
          'auth.organization.tier_changed',
          { organizationId: org.id, tier: org.tier, previousTier: previous.tier, timeZone: org.timeZone, livemode: true },
          { orgid: org.id, livemode: true },
        );
      }
      return toOrganizationView(org);
    });
  }
}
