import { Controller, Delete, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Bus } from '#libs/bus';
import {
  CALENDAR_FEED_MAX_EVENTS,
  CALENDAR_FEED_PAST_DAYS,
  CalendarFeedCreatedView,
  CalendarFeedView,
  type Principal,
} from '#libs/contracts';
import { CurrentPrincipal, Operation } from '#libs/edge';
import { BUS } from '#libs/runtime';
import { IfMatch, IfMatchChecked } from '../http/conditional-requests.js';
import { NoStore } from '../http/personal-data.js';
import { NoBody } from '../http/validation.pipes.js';
import { ApiProblems } from '../openapi/api-problems.decorator.js';

/** The body of the feed's writes: nothing, or an empty object. */
const EMPTY_BODY = { required: false, schema: { type: 'object', properties: {}, additionalProperties: false } } as const;

const FEED =
  `The feed lists the organization's published and closed signups of the credential's mode whose events end after ${CALENDAR_FEED_PAST_DAYS} ` +
  `days ago: one event per slot, or one at the signup's date when it has no slot, the earliest first, at most ${CALENDAR_FEED_MAX_EVENTS}. ` +
  'Its address is a secret: anyone who has it can read the feed, without a credential.';

/** The organization's calendar feed in the credential's mode: one secret address, made, replaced or revoked here. */
@ApiTags('calendars')
@Controller('calendar-feed')
export class CalendarFeedController {
  constructor(@Inject(BUS) private readonly bus: Bus) {}

  @Post()
  @NoStore()
  @Operation('signups.calendar_feed.create')
  @ApiOperation({
    summary: 'Make the calendar feed address (shown only now); a previous address stops working',
    description: `${FEED} Calling it again makes a new address and revokes the old one (rotation). Takes no body.`,
  })
  @ApiBody(EMPTY_BODY)
  @ApiCreatedResponse({ type: CalendarFeedCreatedView })
  @ApiProblems(['scope_required', 'validation_failed'])
  create(@NoBody() _body: Record<string, never>, @CurrentPrincipal() principal: Principal): Promise<CalendarFeedCreatedView> {
    return this.bus.request('signups.calendar_feed.create', { principal });
  }

  @Get()
  @NoStore()
  @Operation('signups.calendar_feed.get')
  @ApiOperation({ summary: 'Whether the calendar feed exists, and since when; never its address', description: FEED })
  @ApiOkResponse({ type: CalendarFeedView })
  @ApiProblems(['scope_required'])
  get(@CurrentPrincipal() principal: Principal): Promise<CalendarFeedView> {
    return this.bus.request('signups.calendar_feed.get', { principal });
  }

  @Delete()
  @HttpCode(204)
  @Operation('signups.calendar_feed.revoke')
  @IfMatchChecked()
  @ApiOperation({
    summary: 'Revoke the calendar feed address: it stops working at once',
    description: 'Answers 204 whether or not a feed existed: afterwards there is none. Takes no body.',
  })
  @ApiBody(EMPTY_BODY)
  @ApiNoContentResponse()
  @ApiProblems(['scope_required', 'validation_failed'])
  async revoke(
    @NoBody() _body: Record<string, never>,
    @CurrentPrincipal() principal: Principal,
    @IfMatch() ifMatch: string | undefined,
  ): Promise<void> {
    await this.bus.request('signups.calendar_feed.revoke', { principal, ifMatch });
  }
}
