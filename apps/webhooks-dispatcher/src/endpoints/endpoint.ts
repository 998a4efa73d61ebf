import type { PausedReason, Principal } from '#libs/contracts';

/** A webhook endpoint as the dispatcher keeps it; secrets stay sealed until a delivery signs with them. */
export interface Endpoint {
  id: string;
  organizationId: string;
  livemode: boolean;
  url: string;
  description: string;
  eventTypes: string[];
  sealedSecret: string;
  sealedPreviousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  paused: boolean;
  pausedReason: PausedReason | null;
  pausedAt: Date | null;
  consecutiveFailures: number;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Whose endpoints a caller manages: one organization in one mode. */
export interface Owner {
  organizationId: string;
  livemode: boolean;
}

export function ownerOf(principal: Principal): Owner {
  return { organizationId: principal.organizationId, livemode: principal.livemode };
}

/** How long the previous secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_SECONDS = 24 * 60 * 60;
