import { DEFAULT_TIER_LIMITS, type Tier } from '#libs/config';
import { upgradeRequired } from './upgrade-required.js';

const webhookEndpoints = (tier: Tier) => DEFAULT_TIER_LIMITS[tier].webhookEndpoints;
const smsPerDay = (tier: Tier) => DEFAULT_TIER_LIMITS[tier].smsPerDay;

describe('upgradeRequired', () => {
  it('names a missing feature with the lowest tier that has it, without limit and used', () => {
    const problem = upgradeRequired({ kind: 'feature', featureLabel: 'SMS reminders', currentTier: 'free', allowance: smsPerDay });
    expect(problem.code).toBe('upgrade_required');
    expect(problem.status).toBe(402);
    expect(problem.problemCause).toEqual({ kind: 'feature', featureLabel: 'SMS reminders', currentTier: 'free', requiredTier: 'pro' });
    expect(problem.detail).toMatch(/SMS reminders are not available on the free tier\. Upgrade to the pro tier\./);
  });

  it('gives a count cap its limit and use, and the lowest tier whose cap is above the use', () => {
    const problem = upgradeRequired({
      kind: 'limit',
      featureLabel: 'Webhook endpoints',
      currentTier: 'free',
      allowance: webhookEndpoints,
      used: 1,
    });
    expect(problem.problemCause).toEqual({
      kind: 'limit',
      featureLabel: 'Webhook endpoints',
      currentTier: 'free',
      requiredTier: 'pro',
      limit: 1,
      used: 1,
    });
  });

  it('skips a higher tier whose allowance would still refuse', () => {
    const allowance = (tier: Tier) => ({ free: 3, pro: 3, org: 10 })[tier];
    const problem = upgradeRequired({ kind: 'quota', featureLabel: 'AI drafts', currentTier: 'free', allowance, used: 3 });
    expect(problem.problemCause).toMatchObject({ kind: 'quota', requiredTier: 'org', limit: 3, used: 3 });
  });

  it('answers requiredTier null on the highest tier', () => {
    const problem = upgradeRequired({
      kind: 'limit',
      featureLabel: 'Webhook endpoints',
      currentTier: 'org',
      allowance: webhookEndpoints,
      used: 100,
    });
    expect(problem.problemCause).toMatchObject({ currentTier: 'org', requiredTier: null, limit: 100, used: 100 });
    expect(problem.detail).toMatch(/No tier allows more/);
  });

  it('goes over the bus with its cause intact', () => {
    const problem = upgradeRequired({
      kind: 'quota',
      featureLabel: 'AI drafts',
      currentTier: 'pro',
      allowance: (t) => DEFAULT_TIER_LIMITS[t].aiDraftsPerMonth,
      used: 100,
    });
    expect(problem.toWire().cause).toEqual({
      kind: 'quota',
      featureLabel: 'AI drafts',
      currentTier: 'pro',
      requiredTier: 'org',
      limit: 100,
      used: 100,
    });
  });
});
