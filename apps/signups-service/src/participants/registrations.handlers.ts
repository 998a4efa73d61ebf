import { Injectable } from '@nestjs/common';
import { type HandlersOf, requireUuid, UpdateRegistrationDto, validateInput } from '#libs/contracts';
import { RegistrationPresenter } from './registration.presenter.js';
import { phoneOf, selectionsOf } from './registration-input.js';
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
    private readonly presenter: RegistrationPresenter,
    private readonly getRegistration: GetRegistrationUseCase,
    private readonly changeRegistration: ChangeRegistrationUseCase,
    private readonly cancelRegistration: CancelRegistrationUseCase,
    private readonly waitlist: WaitlistUseCase,
  ) {}

  handlers(): Pick<HandlersOf<'signups'>, RegistrationsSubject> {
    return {
      'signups.registrations.get': async ({ token }) => this.presenter.view(await this.getRegistration.execute(token)),
      'signups.registrations.calendar': async ({ token }) => this.presenter.view(await this.getRegistration.byCalendarToken(token)),
      'signups.registrations.update': async ({ token, input, ifMatch }) => {
        const valid = await validateInput(UpdateRegistrationDto, input);
        const changes = {
          name: valid.name,
          phone: phoneOf(valid.phone),
          selections: valid.selections && selectionsOf(valid.selections),
          answers: valid.answers,
        };
        return this.presenter.view(await this.changeRegistration.byToken(token, changes, ifMatch));
      },
      'signups.registrations.cancel': async ({ token, ifMatch }) =>
        this.presenter.view(await this.cancelRegistration.byToken(token, ifMatch)),
      'signups.registrations.accept': async ({ token, entryId }) =>
        this.presenter.view(await this.waitlist.accept(token, requireUuid(entryId, 'entryId'))),
      'signups.registrations.leave': async ({ token, entryId, ifMatch }) =>
        this.presenter.view(await this.waitlist.leave(token, requireUuid(entryId, 'entryId'), ifMatch)),
    };
  }
}
