import type { OrganizationSummary, OrganizationView } from '#libs/contracts';
import type { Organization } from './organization.js';

export function toOrganizationSummary(org: Organization): OrganizationSummary {
  return { id: org.id, name: org.name, slug: org.slug, tier: org.tier, timeZone: org.timeZone };
}

export function toOrganizationView(org: Organization): OrganizationView {
  return { ...toOrganizationSummary(org), createdAt: org.createdAt.toISOString(), updatedAt: org.updatedAt.toISOString() };
}
