import { type Tier, TIERS } from '#libs/config';
import { ProblemError, type UpgradeCause } from './problem-error.js';

export interface UpgradeRequest {
  /** feature: the tier lacks it; limit: a count cap (webhook endpoints); quota: a periodic allowance (AI drafts). */
  kind: UpgradeCause['kind'];
  /** What is gated, for people: "Webhook endpoints", "SMS reminders". */
  featureLabel: string;
  currentTier: Tier;
  /** The allowance of a tier (0 when a tier lacks a feature). */
  allowance(tier: Tier): number;
  /** For limit and quota: how many the organization has used. */
  used?: number;
}

/**
 * The one builder of 402 upgrade_required. requiredTier is the lowest tier above the caller's
 * whose allowance would let this request through, or null when no tier does; limit and used
 * are given for limit and quota.
 */
export function upgradeRequired(request: UpgradeRequest): ProblemError {
  const { kind, featureLabel, currentTier, allowance } = request;
  const used = request.used ?? 0;
  const needed = kind === 'feature' ? 1 : used + 1;
  const higher = TIERS.slice(TIERS.indexOf(currentTier) + 1);
  const requiredTier = higher.find((tier) => allowance(tier) >= needed) ?? null;
  const cause: UpgradeCause = {
    kind,
    featureLabel,
    currentTier,
    requiredTier,
    ...(kind !== 'feature' && { limit: allowance(currentTier), used }),
  };
  const upgrade = requiredTier ? `Upgrade to the ${requiredTier} tier.` : 'No tier allows more.';
  const detail =
    kind === 'feature'
      ? `${featureLabel} are not available on the ${currentTier} tier. ${upgrade}`
      : `${featureLabel}: ${used} of ${allowance(currentTier)} ${kind === 'quota' ? 'used this period' : 'in use'} on the ${currentTier} tier. ${upgrade}`;
  return new ProblemError('upgrade_required', detail, { cause });
}
