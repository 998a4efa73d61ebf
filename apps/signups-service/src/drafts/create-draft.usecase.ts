import { Inject, Injectable } from '@nestjs/common';
import type { Principal, SignupDraft } from '#libs/contracts';
import { ProblemError, upgradeRequired } from '#libs/problem';
import { SIGNUPS_SERVICE_CONFIG, type SignupsServiceConfig } from '../signups-service.config.js';
import { AiQuotaRepository } from './ai-quota.repository.js';
import { DRAFTER, OFFLINE_DRAFTER, type Drafter } from './drafter.js';

/**
 * A draft from a description; creates nothing. Live calls use the configured drafter and one of
 * the organization's AI drafts of the month, only when a draft comes back (a provider failure
 * uses none). Sandbox calls use the offline drafter and no quota.
 */
@Injectable()
export class CreateDraftUseCase {
  constructor(
    private readonly quota: AiQuotaRepository,
    @Inject(DRAFTER) private readonly drafter: Drafter,
    @Inject(OFFLINE_DRAFTER) private readonly offline: Drafter,
    @Inject(SIGNUPS_SERVICE_CONFIG) private readonly config: SignupsServiceConfig,
  ) {}

  async execute(principal: Principal, description: string): Promise<{ draft: SignupDraft }> {
    if (!description.trim()) throw ProblemError.validation([{ path: 'description', message: 'Must not be empty' }]);
    const now = new Date();
    if (!principal.livemode) return { draft: await this.offline.draft(description, now) };

    const allowance = (tier: Principal['tier']) => this.config.tierLimits[tier].aiDraftsPerMonth;
    const refusal = (used: number) => upgradeRequired({ kind: 'quota', featureLabel: 'AI drafts', currentTier: principal.tier, allowance, used });
    const quota = allowance(principal.tier);
    const used = await this.quota.used(principal.organizationId);
    if (used >= quota) throw refusal(used);
    const draft = await this.drafter.draft(description, now);
    // Another call may have used the last draft while this one waited for the provider.
    if (!(await this.quota.consume(principal.organizationId, quota))) throw refusal(quota);
    return { draft };
  }
}
