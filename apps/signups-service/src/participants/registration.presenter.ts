import { Inject, Injectable } from '@nestjs/common';
import type { RegistrationView } from '#libs/contracts';
import { PUBLIC_ORIGIN, SignupPresenter } from '../signups/signup.presenter.js';
import { ParticipantCalendarTokens } from './calendar-token.js';
import { participantView } from './participant.presenter.js';
import type { Registration } from './registration-reader.js';

/** A registration as the confirmation-token flows answer it (GET /registrations/{token} and its writes): the view its ETag is taken of. */
@Injectable()
export class RegistrationPresenter {
  constructor(
    private readonly signups: SignupPresenter,
    private readonly calendarTokens: ParticipantCalendarTokens,
    @Inject(PUBLIC_ORIGIN) private readonly publicOrigin: string,
  ) {}

  view({ participant, signup, contents }: Registration): RegistrationView {
    return {
      participant: participantView(participant, signup.livemode),
      signup: this.signups.publicView(signup, contents, new Date()),
      calendarUrl: `${this.publicOrigin}/calendars/${this.calendarTokens.tokenOf(participant.id)}.ics`,
    };
  }
}
