import type { MemberRole } from '#libs/contracts';

/** A user as the domain sees it (the repository maps rows to it, the views map it to the contract). */
export interface User {
  id: string;
  /** As given; unique case-insensitively (index on lower(email)). */
  email: string;
  /** argon2id PHC string. */
  passwordHash: string;
  /** When the person proved they read mail at `email` (a link we sent); null until then. Users the admin API makes are verified. */
  emailVerifiedAt: Date | null;
  createdAt: Date;
}

/** A user's place in one organization. */
export interface Membership {
  userId: string;
  organizationId: string;
  role: MemberRole;
  createdAt: Date;
}

/** A member of an organization as its members list shows them. */
export interface Member {
  userId: string;
  email: string;
  role: MemberRole;
}
