import { Injectable } from '@nestjs/common';
import { type HandlersOf, requireUuid } from '#libs/contracts';
import { ownerOf } from '../signups/signup.js';
import { SignupAnalyticsUseCase } from './analytics.usecase.js';

/** signups.analytics: analytics:read, owner only. */
@Injectable()
export class AnalyticsHandlers {
  constructor(private readonly analytics: SignupAnalyticsUseCase) {}

  handlers(): Pick<HandlersOf<'signups'>, 'signups.analytics'> {
    return {
      'signups.analytics': ({ principal, signupId }) =>
        this.analytics.execute({ owner: ownerOf(principal), signupId: requireUuid(signupId) }),
    };
  }
}
