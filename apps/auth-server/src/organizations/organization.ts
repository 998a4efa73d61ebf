import type { Tier } from '#libs/config';

/** An organization as the domain sees it (the repository maps rows to it, the views map it to the contract). */
export interface Organization {
  id: string;
  name: string;
  slug: string;
  tier: Tier;
  createdAt: Date;
  updatedAt: Date;
}
