import { Inject, Injectable } from '@nestjs/common';
import { type HandlersOf, type RegistrationView, requireUuid, UpdateRegistrationDto, validateInput } from '#libs/contracts';
import { PUBLIC_ORIGIN, SignupPresenter } from '../signups/signup.presenter.js';
import { ParticipantCalendarTokens } from './calendar-token.js';
import { participantView } from './participant.presenter.js';
import { phoneOf, selectionsOf } from './registration-input.js';
import type { Registration } from './registration-reader.js';
import { CancelRegistrationUseCase } from './usecases/cancel-registration.usecase.js';
import { ChangeRegistrationUseCase } from './usecases/change-registration.usecase.js';
import { GetRegistrationUseCase } from './usecases/get-registration.usecase.js';
import { WaitlistUseCase } from './usecases/waitlist.usecase.js';

type RegistrationsSubject = `signups.registrations.${'get' | 'calendar' | 'update' | 'cancel' | 'accept' | 'leave'}`;

/**
 * signups.registrations.*: a participant manages their own registration with its confirmation
 * token, no credential; their calendar file reads it with the read-only calendar token each view
 * carries (calendarUrl). A malformed or unknown token is not found.
 */
@Injectable()
export class RegistrationsHandlers {
  constructor(
    private readonly signups: SignupPresenter,
    private readonly getRegistration: GetRegistrationUseCase,
    private readonly changeRegistration: ChangeRegistrationUseCase,
    private readonly cancelRegistration: CancelRegistrationUseCase,
    private readonly waitlist: WaitlistUseCase,
    private readonly calendarTokens: ParticipantCalendarTokens,
    @Inject(PUBLIC_ORIGIN) private readonly publicOrigin: string,
  ) {}

  handlers(): Pick<HandlersOf<'signups'>, RegistrationsSubject> {
    return {
      'signups.registrations.get': async ({ token }) => this.view(await this.getRegistration.execute(token)),
      'signups.registrations.calendar': async ({ token }) => this.view(await this.getRegistration.byCalendarToken(token)),
      'signups.registrations.update': async ({ token, input }) => {
        const valid = await validateInput(UpdateRegistrationDto, input);
        const changes = {
          name: valid.name,
          phone: phoneOf(valid.phone),
          selections: valid.selections && selectionsOf(valid.selections),
          answers: valid.answers,
        };
        return this.view(await this.changeRegistration.byToken(token, changes));
      },
      'signups.registrations.cancel': async ({ token }) => this.view(await this.cancelRegistration.byToken(token)),
      'signups.registrations.accept': async ({ token, entryId }) =>
        this.view(await this.waitlist.accept(token, requireUuid(entryId, 'entryId'))),
      'signups.registrations.leave': async ({ token, entryId }) =>
        this.view(await this.waitlist.leave(token, requireUuid(entryId, 'entryId'))),
    };
  }

  private view({ participant, signup, contents }: Registration): RegistrationView {
    return {
      participant: participantView(participant, signup.livemode),
      signup: this.signups.publicView(signup, contents, new Date()),
      calendarUrl: `${this.publicOrigin}/calendars/${this.calendarTokens.tokenOf(participant.id)}.ics`,
    };
  }
}
