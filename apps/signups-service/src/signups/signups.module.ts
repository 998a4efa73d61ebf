import { Module } from '@nestjs/common';
import { APP_CONFIG } from '#libs/runtime';
import { OrganizationTimeZone } from '../common/organization-time-zone.js';
import { ParticipantsRepository } from '../participants/participants.repository.js';
import type { SignupsServiceConfig } from '../signups-service.config.js';
import { WaitlistRepository } from '../waitlist/waitlist.repository.js';
import { Waitlists } from '../waitlist/waitlists.js';
import { QuestionsRepository } from './questions.repository.js';
import { PUBLIC_ORIGIN, SignupPresenter } from './signup.presenter.js';
import { SignupPrecondition } from './signup-precondition.js';
import { SignupsHandlers } from './signups.handlers.js';
import { SignupsRepository } from './signups.repository.js';
import { SlotsItemsHandlers } from './slots-items.handlers.js';
import { SlotsItemsRepository } from './slots-items.repository.js';
import { ChangeSignupStatusUseCase } from './usecases/change-signup-status.usecase.js';
import { CreateSignupUseCase, SIGNUPS_PER_DAY } from './usecases/create-signup.usecase.js';
import { DeleteSignupUseCase } from './usecases/delete-signup.usecase.js';
import { GetOwnedSignupUseCase } from './usecases/get-owned-signup.usecase.js';
import { GetPublicSignupUseCase } from './usecases/get-public-signup.usecase.js';
import { GetSignupUseCase } from './usecases/get-signup.usecase.js';
import { ListSignupsUseCase } from './usecases/list-signups.usecase.js';
import { ManageSlotsItemsUseCase } from './usecases/manage-slots-items.usecase.js';
import { UpdateSignupUseCase } from './usecases/update-signup.usecase.js';

/**
 * The signup lifecycle (create, read, list, edit, publish, close, delete), its slots and items,
 * and its public view; the repositories of participants and waitlists, and the waitlist's rules,
 * which a change of a signup's limits applies too. Exports what participants and analytics build on.
 */
@Module({
  providers: [
    {
      provide: PUBLIC_ORIGIN,
      useFactory: (config: SignupsServiceConfig) => new URL(config.publicBaseUrl).origin,
      inject: [APP_CONFIG],
    },
    {
      provide: SIGNUPS_PER_DAY,
      useFactory: (config: SignupsServiceConfig) => config.signupsPerDay,
      inject: [APP_CONFIG],
    },
    SignupPresenter,
    SignupPrecondition,
    OrganizationTimeZone,
    SignupsRepository,
    QuestionsRepository,
    ListSignupsUseCase,
    GetSignupUseCase,
    GetOwnedSignupUseCase,
    CreateSignupUseCase,
    UpdateSignupUseCase,
    ChangeSignupStatusUseCase,
    DeleteSignupUseCase,
    GetPublicSignupUseCase,
    SlotsItemsRepository,
    ParticipantsRepository,
    WaitlistRepository,
    Waitlists,
    ManageSlotsItemsUseCase,
    SignupsHandlers,
    SlotsItemsHandlers,
  ],
  exports: [
    PUBLIC_ORIGIN,
    SIGNUPS_PER_DAY,
    SignupsRepository,
    QuestionsRepository,
    SlotsItemsRepository,
    ParticipantsRepository,
    WaitlistRepository,
    Waitlists,
    SignupPresenter,
    SignupsHandlers,
    SlotsItemsHandlers,
  ],
})
export class SignupsModule {}
