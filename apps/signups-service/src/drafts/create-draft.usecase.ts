import { Inject, Injectable } from '@nestjs/common';
import type { Principal, SignupDraft, ZonedSignupDraft } from '#libs/contracts';
import type { Counter, Metrics } from '#libs/observability';
import { isProblemError, ProblemError, upgradeRequired } from '#libs/problem';
import { APP_CONFIG, METRICS } from '#libs/runtime';
import { OrganizationTimeZone } from '../common/organization-time-zone.js';
import type { SignupsServiceConfig } from '../signups-service.config.js';
import { AiQuotaRepository } from './ai-quota.repository.js';
import { type DraftContext, DRAFTER, type Drafter, OFFLINE_DRAFTER } from './drafter.js';

type Provider = SignupsServiceConfig['aiProvider'];
type Outcome = 'drafted' | 'quota_exceeded' | 'timeout' | 'unavailable';

/** The counted outcome of a failed draft request: a quota refusal or a provider failure; anything else is not counted. */
function failureOutcome(err: unknown): Outcome | undefined {
  if (!isProblemError(err)) return undefined;
  if (err.code === 'upgrade_required') return 'quota_exceeded';
  if (err.code === 'upstream_unavailable') return err.status === 504 ? 'timeout' : 'unavailable';
  return undefined;
}

/**
 * A draft from a description; creates nothing. Live calls use the configured drafter and one of
 * the organization's AI drafts of the month, only when a draft comes back (a provider failure
 * uses none). Sandbox calls use the offline drafter and no quota. Dates and times written in the
 * description are read in the zone asked for, or else the organization's (asked of the
 * auth-server), and the draft carries that zone. Each request that gets past validation is counted in
 * ai_drafts_total by provider and outcome.
 */
@Injectable()
export class CreateDraftUseCase {
  private readonly drafts: Counter<'provider' | 'outcome'>;

  constructor(
    private readonly quota: AiQuotaRepository,
    @Inject(DRAFTER) private readonly drafter: Drafter,
    @Inject(OFFLINE_DRAFTER) private readonly offline: Drafter,
    private readonly organizationTimeZone: OrganizationTimeZone,
    @Inject(APP_CONFIG) private readonly config: SignupsServiceConfig,
    @Inject(METRICS) metrics: Metrics,
  ) {
    this.drafts = metrics.counter('ai_drafts_total', 'AI draft requests, by provider and outcome', ['provider', 'outcome']);
  }

  /** `timeZone`: the zone the description's times are in; the organization's when not given. */
  async execute(principal: Principal, description: string, timeZone?: string): Promise<{ draft: ZonedSignupDraft }> {
    if (!description.trim()) throw ProblemError.validation([{ path: 'description', message: 'Must not be empty' }]);
    const context: DraftContext = { referenceDate: new Date(), timeZone: timeZone ?? (await this.organizationTimeZone.of(principal)) };
    const zoned = (draft: SignupDraft) => ({ draft: { ...draft, timeZone: context.timeZone } });
    if (!principal.livemode) return this.counted('offline', async () => zoned(await this.offline.draft(description, context)));
    return this.counted(this.config.aiProvider, async () => zoned(await this.live(principal, description, context)));
  }

  private async live(principal: Principal, description: string, context: DraftContext): Promise<SignupDraft> {
    const allowance = (tier: Principal['tier']) => this.config.tierLimits[tier].aiDraftsPerMonth;
    const refusal = (used: number) =>
      upgradeRequired({ kind: 'quota', featureLabel: 'AI drafts', currentTier: principal.tier, allowance, used });
    const quota = allowance(principal.tier);
    const used = await this.quota.used(principal.organizationId);
    if (used >= quota) throw refusal(used);
    const draft = await this.drafter.draft(description, context);
    // Another call may have used the last draft while this one waited for the provider.
    if (!(await this.quota.consume(principal.organizationId, quota))) throw refusal(quota);
    return draft;
  }

  private async counted<T>(provider: Provider, request: () => Promise<T>): Promise<T> {
    try {
      const result = await request();
      this.drafts.inc({ provider, outcome: 'drafted' });
      return result;
    } catch (err) {
      const outcome = failureOutcome(err);
      if (outcome) this.drafts.inc({ provider, outcome });
      throw err;
    }
  }
}
