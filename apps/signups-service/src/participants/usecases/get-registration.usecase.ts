import { Injectable } from '@nestjs/common';
import { type Registration, RegistrationReader } from '../registration-reader.js';

/** A participant's own registration by its confirmation token (or, for the calendar only, its read-only calendar token), with the signup's public view. */
@Injectable()
export class GetRegistrationUseCase {
  constructor(private readonly registrations: RegistrationReader) {}

  async execute(token: string): Promise<Registration> {
    return this.registrations.withSignup(await this.registrations.byToken(token));
  }

  async byCalendarToken(token: string): Promise<Registration> {
    return this.registrations.withSignup(await this.registrations.byCalendarToken(token));
  }
}
