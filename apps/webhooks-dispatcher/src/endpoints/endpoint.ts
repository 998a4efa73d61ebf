import type { PausedReason, Principal } from '#libs/contracts';
import { ProblemError } from '#libs/problem';

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

/** Defense in depth: the edge lets only API keys through to webhook endpoints and their deliveries. */
export function assertApiKey(principal: Principal): Principal {
  if (principal.kind !== 'api_key') throw new ProblemError('forbidden', 'Webhook endpoints take an organization API key, not an OAuth access token.');
  return principal;
}

/** How long the previous secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_SECONDS = 24 * 60 * 60;
