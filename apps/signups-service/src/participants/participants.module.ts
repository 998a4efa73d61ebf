import { Module } from '@nestjs/common';
import { SignupsModule } from '../signups/signups.module.js';
import { OfferExpiry } from '../waitlist/offer-expiry.js';
import { ParticipantCalendarTokens } from './calendar-token.js';
import { ConfirmationTokens } from './confirmation-token.js';
import { MessageContextPresenter } from './message-context.presenter.js';
import { ParticipantsHandlers } from './participants.handlers.js';
import { RegistrationPresenter } from './registration.presenter.js';
import { RegistrationLock } from './registration-lock.js';
import { RegistrationReader } from './registration-reader.js';
import { RegistrationsHandlers } from './registrations.handlers.js';
import { RemindedConsumer } from './reminded.consumer.js';
import { SelectionAllocator } from './selection-allocator.js';
import { CancelRegistrationUseCase } from './usecases/cancel-registration.usecase.js';
import { ChangeRegistrationUseCase } from './usecases/change-registration.usecase.js';
import { ExportParticipantsUseCase } from './usecases/export-participants.usecase.js';
import { GetRegistrationUseCase } from './usecases/get-registration.usecase.js';
import { ListParticipantsUseCase } from './usecases/list-participants.usecase.js';
import { MessageContextsUseCase } from './usecases/message-contexts.usecase.js';
import { RegisterParticipantUseCase } from './usecases/register-participant.usecase.js';
import { WaitlistUseCase } from './usecases/waitlist.usecase.js';
import { WaitlistHandlers } from './waitlist.handlers.js';

/** Registrations: by anyone, managed by the organizer, and by the participant with their confirmation token; the waitlists' moves and offer sweep. */
@Module({
  imports: [SignupsModule],
  providers: [
    ConfirmationTokens,
    ParticipantCalendarTokens,
    SelectionAllocator,
    RegistrationReader,
    RegistrationPresenter,
    RegistrationLock,
    RegisterParticipantUseCase,
    ListParticipantsUseCase,
    ExportParticipantsUseCase,
    MessageContextPresenter,
    MessageContextsUseCase,
    ChangeRegistrationUseCase,
    CancelRegistrationUseCase,
    GetRegistrationUseCase,
    ParticipantsHandlers,
    RegistrationsHandlers,
    RemindedConsumer,
    WaitlistUseCase,
    WaitlistHandlers,
    OfferExpiry,
  ],
  exports: [ParticipantsHandlers, RegistrationsHandlers, WaitlistHandlers, RemindedConsumer, OfferExpiry, RegistrationLock],
})
export class ParticipantsModule {}
