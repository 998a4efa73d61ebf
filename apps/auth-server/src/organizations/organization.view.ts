import type { OrganizationSummary, OrganizationView } from '#libs/contracts';
import type { OrganizationEntity } from './organization.entity.js';

export function toOrganizationSummary(org: OrganizationEntity): OrganizationSummary {
  return { id: org.id, name: org.name, slug: org.slug, tier: org.tier };
}

export function toOrganizationView(org: OrganizationEntity): OrganizationView {
  return { ...toOrganizationSummary(org), createdAt: org.createdAt.toISOString(), updatedAt: org.updatedAt.toISOString() };
}
