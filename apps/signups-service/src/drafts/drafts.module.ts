import { Module } from '@nestjs/common';
import { APP_CONFIG } from '#libs/runtime';
import { OrganizationTimeZone } from '../common/organization-time-zone.js';
import type { SignupsServiceConfig } from '../signups-service.config.js';
import { AiQuotaRepository } from './ai-quota.repository.js';
import { CreateDraftUseCase } from './create-draft.usecase.js';
import { DRAFTER, type Drafter, OFFLINE_DRAFTER } from './drafter.js';
import { DraftsHandlers } from './drafts.handlers.js';
import { OfflineDrafter } from './offline-drafter.adapter.js';
import { OpenAiDrafter } from './openai-drafter.js';

function configuredDrafter(config: SignupsServiceConfig, offline: Drafter): Drafter {
  if (config.aiProvider === 'offline') return offline;
  if (!config.openaiApiKey) throw new Error('OPENAI_API_KEY is required when AI_PROVIDER=openai');
  return new OpenAiDrafter({
    baseUrl: config.openaiBaseUrl,
    apiKey: config.openaiApiKey,
    model: config.aiModel,
    timeoutMs: config.aiTimeoutMs,
  });
}

/** AI drafts: a signup drafted from a description by the offline parser or an OpenAI-compatible provider, within a monthly quota. */
@Module({
  providers: [
    { provide: OFFLINE_DRAFTER, useClass: OfflineDrafter },
    { provide: DRAFTER, useFactory: configuredDrafter, inject: [APP_CONFIG, OFFLINE_DRAFTER] },
    AiQuotaRepository,
    OrganizationTimeZone,
    CreateDraftUseCase,
    DraftsHandlers,
  ],
  exports: [DraftsHandlers],
})
export class DraftsModule {}
