import { Injectable } from '@nestjs/common';
import type { AnalyticsView } from '#libs/contracts';
import type { Owner } from '../signups/signup.js';
import { requireOwned } from '../signups/signup.policy.js';
import { SignupsRepository } from '../signups/signups.repository.js';
import { SlotsItemsRepository } from '../signups/slots-items.repository.js';
import { analyticsOf } from './analytics.js';
import { AnalyticsRepository } from './analytics.repository.js';

export interface AnalyticsQuery {
  owner: Owner;
  signupId: string;
}

/**
 * An owned signup's analytics, computed live: the signup, then its slots, items, participant,
 * registrations per day (in the signup's zone) and waitlist aggregates at once.
 */
@Injectable()
export class SignupAnalyticsUseCase {
  constructor(
    private readonly signups: SignupsRepository,
    private readonly contents: SlotsItemsRepository,
    private readonly analytics: AnalyticsRepository,
  ) {}

  async execute({ owner, signupId }: AnalyticsQuery): Promise<AnalyticsView> {
    const signup = requireOwned(await this.signups.findById(signupId), owner);
    const [contents, stats, lines, byDay] = await Promise.all([
      this.contents.contentsOf(signup.id),
      this.analytics.participantStats(signup.id),
      this.analytics.lineStats(signup.id),
      this.analytics.registrationsByDay(signup.id, signup.timeZone),
    ]);
    return analyticsOf(signup.id, contents, stats, lines, byDay);
  }
}
