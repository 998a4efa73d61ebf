import { Injectable } from '@nestjs/common';
import { assertScope, requireUuid, type HandlersOf } from '#libs/contracts';
import { ownerOf } from '../signups/signup.js';
import { SignupAnalyticsUseCase } from './analytics.usecase.js';

/** signups.analytics: analytics:read, owner only. */
@Injectable()
export class AnalyticsHandlers {
  constructor(private readonly analytics: SignupAnalyticsUseCase) {}

  handlers(): Pick<HandlersOf<'signups'>, 'signups.analytics'> {
    return {
      'signups.analytics': async ({ principal, signupId }) => {
        assertScope(principal, 'analytics:read');
        return this.analytics.execute({ owner: ownerOf(principal), signupId: requireUuid(signupId) });
      },
    };
  }
}
