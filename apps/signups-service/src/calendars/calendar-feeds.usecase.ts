import { Inject, Injectable } from '@nestjs/common';
import {
  CALENDAR_FEED_MAX_EVENTS,
  CALENDAR_FEED_PAST_DAYS,
  type CalendarFeedContents,
  type CalendarFeedCreatedView,
  type CalendarFeedSignup,
  type CalendarFeedView,
  requireIfMatch,
} from '#libs/contracts';
import { ProblemError } from '#libs/problem';
import type { Owner } from '../signups/signup.js';
import { PUBLIC_ORIGIN } from '../signups/signup.presenter.js';
import { CalendarFeedsRepository, type FeedEventRow } from './calendar-feeds.repository.js';
import { feedTokenHash, newFeedToken } from './feed-token.js';

const DAY_MS = 86_400_000;

/** The feed as GET /calendar-feed answers it: made at createdAt, or none. */
function feedView(owner: Owner, createdAt: Date | undefined): CalendarFeedView {
  return { exists: createdAt !== undefined, createdAt: createdAt?.toISOString() ?? null, livemode: owner.livemode };
}

/** The signups of a feed's events, in the order of their first event, each with its slots in the feed. */
function signupsOf(rows: FeedEventRow[], publicOrigin: string): CalendarFeedSignup[] {
  const signups = new Map<string, CalendarFeedSignup>();
  for (const row of rows) {
    let signup = signups.get(row.signup_id);
    if (!signup) {
      signup = {
        id: row.signup_id,
        slug: row.slug,
        title: row.title,
        description: row.description,
        location: row.location,
        eventDate: row.event_date.toISOString(),
        timeZone: row.time_zone,
        updatedAt: row.updated_at.toISOString(),
        publicUrl: `${publicOrigin}/s/${row.slug}`,
        slots: [],
      };
      signups.set(row.signup_id, signup);
    }
    if (row.slot_id !== null) {
      signup.slots.push({
        id: row.slot_id,
        title: row.slot_title!,
        description: row.slot_description,
        startTime: row.start_time?.toISOString() ?? null,
        endTime: row.end_time?.toISOString() ?? null,
        updatedAt: row.slot_updated_at!.toISOString(),
      });
    }
  }
  return [...signups.values()];
}

/**
 * An organization's calendar feed in one mode: a secret address (its token stored as a hash)
 * that the organizer makes, replaces or revokes, and that anyone holding it reads without a
 * credential.
 */
@Injectable()
export class CalendarFeedsUseCase {
  constructor(
    private readonly feeds: CalendarFeedsRepository,
    @Inject(PUBLIC_ORIGIN) private readonly publicOrigin: string,
  ) {}

  async get(owner: Owner): Promise<CalendarFeedView> {
    return feedView(owner, await this.feeds.createdAt(owner));
  }

  /** A new address; the one before, if any, stops working at once. */
  async create(owner: Owner): Promise<CalendarFeedCreatedView> {
    const { token, hash } = newFeedToken();
    const createdAt = await this.feeds.replace(owner, hash);
    return { url: `${this.publicOrigin}/calendars/${token}.ics`, createdAt: createdAt.toISOString(), livemode: owner.livemode };
  }

  /**
   * With If-Match, revokes only if the feed is as GET showed it (the tag of its view, taken of the
   * row the deletion locked, so a rotation in between makes the tag stale): 412 otherwise, nothing
   * revoked. `*` always holds: GET always answers a view, with or without a feed.
   */
  async revoke(owner: Owner, ifMatch?: string): Promise<CalendarFeedView> {
    await this.feeds.delete(owner, (createdAt) => requireIfMatch(ifMatch, feedView(owner, createdAt)));
    return feedView(owner, undefined);
  }

  /** What the feed of a token shows; not_found for a token that opens none. */
  async contents(token: string, now = new Date()): Promise<CalendarFeedContents> {
    const hash = feedTokenHash(token);
    const owner = hash === undefined ? undefined : await this.feeds.ownerOf(hash);
    if (!owner) throw new ProblemError('not_found', 'No calendar feed has this address.');
    const since = new Date(now.getTime() - CALENDAR_FEED_PAST_DAYS * DAY_MS);
    const rows = await this.feeds.events(owner, since, CALENDAR_FEED_MAX_EVENTS);
    return { livemode: owner.livemode, signups: signupsOf(rows, this.publicOrigin) };
  }
}
