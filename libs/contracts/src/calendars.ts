import { ApiProperty } from '@nestjs/swagger';
import type { PublicSignupView } from './participants.js';
import type { SlotView } from './slots-items.js';

/** A calendar feed token: `cal_` followed by 32 base62 characters, as the signups-service issues them. */
export const CALENDAR_FEED_TOKEN_PATTERN = /^cal_[0-9A-Za-z]{32}$/;

/**
 * A participant's read-only calendar token: `pcal_` followed by 54 base64url characters (the
 * participant id and a MAC of it), as the signups-service derives them. It reads that
 * participant's calendar and nothing else.
 */
export const PARTICIPANT_CALENDAR_TOKEN_PATTERN = /^pcal_[0-9A-Za-z_-]{54}$/;

/** At most this many events in an organization's feed, the nearest first. */
export const CALENDAR_FEED_MAX_EVENTS = 500;
/** An organization's feed leaves out events that ended longer ago than this. */
export const CALENDAR_FEED_PAST_DAYS = 30;

/** GET /calendar-feed: whether the organization has a feed in this mode. Never its address. */
export class CalendarFeedView {
  @ApiProperty({ description: 'Whether a feed address exists (and works) for the organization in this mode.' }) exists!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the current address was made; null without one.' })
  createdAt!: string | null;
  @ApiProperty({ description: 'The mode of the feed: false for the sandbox feed.' }) livemode!: boolean;
}

/** POST /calendar-feed: the new address, shown only now. */
export class CalendarFeedCreatedView {
  @ApiProperty({
    format: 'uri',
    description: 'The secret address of the feed (…/calendars/cal_….ics): anyone who has it can read the feed. Shown only now.',
  })
  url!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ description: 'The mode of the feed: false for the sandbox feed.' }) livemode!: boolean;
}

/** A slot as an organization's feed shows it. */
export type CalendarFeedSlot = Pick<SlotView, 'id' | 'title' | 'description' | 'startTime' | 'endTime' | 'updatedAt'>;

/** A signup as an organization's feed shows it: its slots in the feed's window, none when it has no slot. */
export type CalendarFeedSignup = Pick<
  PublicSignupView,
  'id' | 'slug' | 'title' | 'description' | 'location' | 'eventDate' | 'timeZone' | 'updatedAt' | 'publicUrl'
> & { slots: CalendarFeedSlot[] };

/** What an organization's feed holds: its published and closed signups of the feed's mode, nearest first. */
export interface CalendarFeedContents {
  livemode: boolean;
  signups: CalendarFeedSignup[];
}
