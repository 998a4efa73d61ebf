import { Module } from '@nestjs/common';
import { SignupsModule } from '../signups/signups.module.js';
import { ParticipantsHandlers } from './participants.handlers.js';
import { ParticipantsRepository } from './participants.repository.js';
import { RegistrationLock } from './registration-lock.js';
import { RegistrationReader } from './registration-reader.js';
import { RegistrationsHandlers } from './registrations.handlers.js';
import { RemindedConsumer } from './reminded.consumer.js';
import { SelectionAllocator } from './selection-allocator.js';
import { CancelRegistrationUseCase } from './usecases/cancel-registration.usecase.js';
import { ChangeRegistrationUseCase } from './usecases/change-registration.usecase.js';
import { GetRegistrationUseCase } from './usecases/get-registration.usecase.js';
import { ListParticipantsUseCase } from './usecases/list-participants.usecase.js';
import { RegisterParticipantUseCase } from './usecases/register-participant.usecase.js';

/** Registrations: by anyone, managed by the organizer, and by the participant with their confirmation token. */
@Module({
  imports: [SignupsModule],
  providers: [
    ParticipantsRepository,
    SelectionAllocator,
    RegistrationReader,
    RegistrationLock,
    RegisterParticipantUseCase,
    ListParticipantsUseCase,
    ChangeRegistrationUseCase,
    CancelRegistrationUseCase,
    GetRegistrationUseCase,
    ParticipantsHandlers,
    RegistrationsHandlers,
    RemindedConsumer,
  ],
  exports: [ParticipantsHandlers, RegistrationsHandlers, RemindedConsumer],
})
export class ParticipantsModule {}
