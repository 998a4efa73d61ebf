import type { KeyMode } from '#libs/contracts';
import type { Scope } from '#libs/scopes';

/** An API key as the domain sees it (the repository maps rows to it, the views map it to the contract). */
export interface ApiKey {
  id: string;
  organizationId: string;
  userId: string;
  name: string | null;
  mode: KeyMode;
  /** null: every scope. */
  scopes: Scope[] | null;
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  keyHash: string;
  /** The first 12 characters of the key, for display. */
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}
