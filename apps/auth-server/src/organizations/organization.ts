import type { Tier } from '#libs/config';

/** An organization as the domain sees it (the repository maps rows to it, the views map it to the contract). */
export interface Organization {
  id: string;
  name: string;
  slug: string;
  tier: Tier;
  /** The IANA zone its new signups take unless given one. */
  timeZone: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What an update may change; undefined leaves a field alone. */
export type OrganizationChanges = Partial<Pick<Organization, 'tier' | 'timeZone'>>;
