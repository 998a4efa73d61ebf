import { Injectable } from '@nestjs/common';
import type { HandlersOf } from '#libs/contracts';
import { ownerOf } from '../signups/signup.js';
import { CalendarFeedsUseCase } from './calendar-feeds.usecase.js';

type CalendarFeedSubject = `signups.calendar_feed.${'get' | 'create' | 'revoke' | 'events'}`;

/**
 * signups.calendar_feed.*: the organizer reads (signups:read), makes or replaces, and revokes
 * (signups:write) the calendar feed of their organization in their mode; anyone holding its
 * token reads what it shows (events, no credential).
 */
@Injectable()
export class CalendarFeedsHandlers {
  constructor(private readonly feeds: CalendarFeedsUseCase) {}

  handlers(): Pick<HandlersOf<'signups'>, CalendarFeedSubject> {
    return {
      'signups.calendar_feed.get': ({ principal }) => this.feeds.get(ownerOf(principal)),
      'signups.calendar_feed.create': ({ principal }) => this.feeds.create(ownerOf(principal)),
      'signups.calendar_feed.revoke': ({ principal, ifMatch }) => this.feeds.revoke(ownerOf(principal), ifMatch),
      'signups.calendar_feed.events': ({ token }) => this.feeds.contents(token),
    };
  }
}
